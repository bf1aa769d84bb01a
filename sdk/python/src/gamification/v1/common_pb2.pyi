from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import options_pb2 as _options_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class IssueSeverity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ISSUE_SEVERITY_UNSPECIFIED: _ClassVar[IssueSeverity]
    ISSUE_SEVERITY_ERROR: _ClassVar[IssueSeverity]
    ISSUE_SEVERITY_WARNING: _ClassVar[IssueSeverity]
ISSUE_SEVERITY_UNSPECIFIED: IssueSeverity
ISSUE_SEVERITY_ERROR: IssueSeverity
ISSUE_SEVERITY_WARNING: IssueSeverity

class AttributeFilter(_message.Message):
    __slots__ = ("key", "value", "attribute_id", "attribute_value")
    KEY_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_ID_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_VALUE_FIELD_NUMBER: _ClassVar[int]
    key: str
    value: str
    attribute_id: str
    attribute_value: str
    def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ..., attribute_id: _Optional[str] = ..., attribute_value: _Optional[str] = ...) -> None: ...

class AdminIssue(_message.Message):
    __slots__ = ("id", "user_id", "boost_id", "index", "severity", "message", "level", "reason")
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    BOOST_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    boost_id: str
    index: int
    severity: IssueSeverity
    message: str
    level: str
    reason: str
    def __init__(self, id: _Optional[str] = ..., user_id: _Optional[str] = ..., boost_id: _Optional[str] = ..., index: _Optional[int] = ..., severity: _Optional[_Union[IssueSeverity, str]] = ..., message: _Optional[str] = ..., level: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class DeletedResource(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class AdminAttributeFilter(_message.Message):
    __slots__ = ("attribute_id", "attribute_value")
    ATTRIBUTE_ID_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_VALUE_FIELD_NUMBER: _ClassVar[int]
    attribute_id: str
    attribute_value: str
    def __init__(self, attribute_id: _Optional[str] = ..., attribute_value: _Optional[str] = ...) -> None: ...

class Badge(_message.Message):
    __slots__ = ("url",)
    URL_FIELD_NUMBER: _ClassVar[int]
    url: str
    def __init__(self, url: _Optional[str] = ...) -> None: ...
