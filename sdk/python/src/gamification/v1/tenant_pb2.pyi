import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TenantStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TENANT_STATUS_UNSPECIFIED: _ClassVar[TenantStatus]
    TENANT_STATUS_ACTIVE: _ClassVar[TenantStatus]
    TENANT_STATUS_ARCHIVED: _ClassVar[TenantStatus]
TENANT_STATUS_UNSPECIFIED: TenantStatus
TENANT_STATUS_ACTIVE: TenantStatus
TENANT_STATUS_ARCHIVED: TenantStatus

class Tenant(_message.Message):
    __slots__ = ("id", "customer_id", "name", "status", "created", "updated")
    ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOMER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    id: str
    customer_id: str
    name: str
    status: TenantStatus
    created: _timestamp_pb2.Timestamp
    updated: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., customer_id: _Optional[str] = ..., name: _Optional[str] = ..., status: _Optional[_Union[TenantStatus, str]] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
