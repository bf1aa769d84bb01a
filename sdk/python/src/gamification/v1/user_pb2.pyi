import datetime

from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import options_pb2 as _options_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UpsertedUser(_message.Message):
    __slots__ = ("id", "email", "tz", "name", "device_tokens", "subscribe_to_emails", "attributes", "sign_up_date", "clear_device_tokens", "clear_tz", "clear_email", "clear_name")
    class AttributesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    TZ_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEVICE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_TO_EMAILS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    SIGN_UP_DATE_FIELD_NUMBER: _ClassVar[int]
    CLEAR_DEVICE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CLEAR_TZ_FIELD_NUMBER: _ClassVar[int]
    CLEAR_EMAIL_FIELD_NUMBER: _ClassVar[int]
    CLEAR_NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    email: str
    tz: str
    name: str
    device_tokens: _containers.RepeatedScalarFieldContainer[str]
    subscribe_to_emails: bool
    attributes: _containers.ScalarMap[str, str]
    sign_up_date: str
    clear_device_tokens: bool
    clear_tz: bool
    clear_email: bool
    clear_name: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., tz: _Optional[str] = ..., name: _Optional[str] = ..., device_tokens: _Optional[_Iterable[str]] = ..., subscribe_to_emails: bool = ..., attributes: _Optional[_Mapping[str, str]] = ..., sign_up_date: _Optional[str] = ..., clear_device_tokens: bool = ..., clear_tz: bool = ..., clear_email: bool = ..., clear_name: bool = ...) -> None: ...

class User(_message.Message):
    __slots__ = ("id", "email", "name", "tz", "device_tokens", "subscribe_to_emails", "attributes", "control", "created", "updated", "sign_up_date")
    class AttributesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TZ_FIELD_NUMBER: _ClassVar[int]
    DEVICE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_TO_EMAILS_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    CONTROL_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    SIGN_UP_DATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    email: str
    name: str
    tz: str
    device_tokens: _containers.RepeatedScalarFieldContainer[str]
    subscribe_to_emails: bool
    attributes: _containers.ScalarMap[str, str]
    control: bool
    created: _timestamp_pb2.Timestamp
    updated: _timestamp_pb2.Timestamp
    sign_up_date: str
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., name: _Optional[str] = ..., tz: _Optional[str] = ..., device_tokens: _Optional[_Iterable[str]] = ..., subscribe_to_emails: bool = ..., attributes: _Optional[_Mapping[str, str]] = ..., control: bool = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., sign_up_date: _Optional[str] = ...) -> None: ...
