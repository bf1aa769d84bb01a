from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor
REST_FIELD_NUMBER: _ClassVar[int]
rest: _descriptor.FieldDescriptor

class RestFieldOptions(_message.Message):
    __slots__ = ("omit_empty",)
    OMIT_EMPTY_FIELD_NUMBER: _ClassVar[int]
    omit_empty: bool
    def __init__(self, omit_empty: bool = ...) -> None: ...
