from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MetricUnitType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    METRIC_UNIT_TYPE_UNSPECIFIED: _ClassVar[MetricUnitType]
    METRIC_UNIT_TYPE_NUMBER: _ClassVar[MetricUnitType]
    METRIC_UNIT_TYPE_CURRENCY: _ClassVar[MetricUnitType]
METRIC_UNIT_TYPE_UNSPECIFIED: MetricUnitType
METRIC_UNIT_TYPE_NUMBER: MetricUnitType
METRIC_UNIT_TYPE_CURRENCY: MetricUnitType

class Metric(_message.Message):
    __slots__ = ("id", "name", "key", "unit_type", "units")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    UNIT_TYPE_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    unit_type: MetricUnitType
    units: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., unit_type: _Optional[_Union[MetricUnitType, str]] = ..., units: _Optional[str] = ...) -> None: ...
