from buf.validate import validate_pb2 as _validate_pb2
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor
USER_ID_FIELD_NUMBER: _ClassVar[int]
user_id: _descriptor.FieldDescriptor
SUPPORTED_TIME_FIELD_NUMBER: _ClassVar[int]
supported_time: _descriptor.FieldDescriptor
