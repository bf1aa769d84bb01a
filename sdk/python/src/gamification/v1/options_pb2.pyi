from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor
REST_FIELD_NUMBER: _ClassVar[int]
rest: _descriptor.FieldDescriptor

class RestFieldOptions(_message.Message):
    __slots__ = ("omit_empty", "present_with", "hidden", "clear_with")
    OMIT_EMPTY_FIELD_NUMBER: _ClassVar[int]
    PRESENT_WITH_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    CLEAR_WITH_FIELD_NUMBER: _ClassVar[int]
    omit_empty: bool
    present_with: str
    hidden: bool
    clear_with: str
    def __init__(self, omit_empty: bool = ..., present_with: _Optional[str] = ..., hidden: bool = ..., clear_with: _Optional[str] = ...) -> None: ...
