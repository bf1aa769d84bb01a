from buf.validate import validate_pb2 as _validate_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AggregationPeriod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGGREGATION_PERIOD_UNSPECIFIED: _ClassVar[AggregationPeriod]
    AGGREGATION_PERIOD_WEEKLY: _ClassVar[AggregationPeriod]
    AGGREGATION_PERIOD_MONTHLY: _ClassVar[AggregationPeriod]
AGGREGATION_PERIOD_UNSPECIFIED: AggregationPeriod
AGGREGATION_PERIOD_WEEKLY: AggregationPeriod
AGGREGATION_PERIOD_MONTHLY: AggregationPeriod

class BrandingImage(_message.Message):
    __slots__ = ("url",)
    URL_FIELD_NUMBER: _ClassVar[int]
    url: str
    def __init__(self, url: _Optional[str] = ...) -> None: ...

class Branding(_message.Message):
    __slots__ = ("app_name", "app_url", "brand_color", "font", "logo", "app_icon")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    APP_URL_FIELD_NUMBER: _ClassVar[int]
    BRAND_COLOR_FIELD_NUMBER: _ClassVar[int]
    FONT_FIELD_NUMBER: _ClassVar[int]
    LOGO_FIELD_NUMBER: _ClassVar[int]
    APP_ICON_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    app_url: str
    brand_color: str
    font: str
    logo: BrandingImage
    app_icon: BrandingImage
    def __init__(self, app_name: _Optional[str] = ..., app_url: _Optional[str] = ..., brand_color: _Optional[str] = ..., font: _Optional[str] = ..., logo: _Optional[_Union[BrandingImage, _Mapping]] = ..., app_icon: _Optional[_Union[BrandingImage, _Mapping]] = ...) -> None: ...

class Experimentation(_message.Message):
    __slots__ = ("control_ratio", "user_activation_window")
    CONTROL_RATIO_FIELD_NUMBER: _ClassVar[int]
    USER_ACTIVATION_WINDOW_FIELD_NUMBER: _ClassVar[int]
    control_ratio: int
    user_activation_window: int
    def __init__(self, control_ratio: _Optional[int] = ..., user_activation_window: _Optional[int] = ...) -> None: ...

class Settings(_message.Message):
    __slots__ = ("branding", "experimentation", "aggregation_period")
    BRANDING_FIELD_NUMBER: _ClassVar[int]
    EXPERIMENTATION_FIELD_NUMBER: _ClassVar[int]
    AGGREGATION_PERIOD_FIELD_NUMBER: _ClassVar[int]
    branding: Branding
    experimentation: Experimentation
    aggregation_period: AggregationPeriod
    def __init__(self, branding: _Optional[_Union[Branding, _Mapping]] = ..., experimentation: _Optional[_Union[Experimentation, _Mapping]] = ..., aggregation_period: _Optional[_Union[AggregationPeriod, str]] = ...) -> None: ...

class GetSettingsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: Settings
    def __init__(self, settings: _Optional[_Union[Settings, _Mapping]] = ...) -> None: ...

class BrandingUpdate(_message.Message):
    __slots__ = ("app_name", "app_url", "brand_color", "font", "logo", "app_icon")
    APP_NAME_FIELD_NUMBER: _ClassVar[int]
    APP_URL_FIELD_NUMBER: _ClassVar[int]
    BRAND_COLOR_FIELD_NUMBER: _ClassVar[int]
    FONT_FIELD_NUMBER: _ClassVar[int]
    LOGO_FIELD_NUMBER: _ClassVar[int]
    APP_ICON_FIELD_NUMBER: _ClassVar[int]
    app_name: str
    app_url: str
    brand_color: str
    font: str
    logo: _struct_pb2.Value
    app_icon: _struct_pb2.Value
    def __init__(self, app_name: _Optional[str] = ..., app_url: _Optional[str] = ..., brand_color: _Optional[str] = ..., font: _Optional[str] = ..., logo: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., app_icon: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class ExperimentationUpdate(_message.Message):
    __slots__ = ("control_ratio", "user_activation_window")
    CONTROL_RATIO_FIELD_NUMBER: _ClassVar[int]
    USER_ACTIVATION_WINDOW_FIELD_NUMBER: _ClassVar[int]
    control_ratio: int
    user_activation_window: int
    def __init__(self, control_ratio: _Optional[int] = ..., user_activation_window: _Optional[int] = ...) -> None: ...

class UpdateSettingsRequest(_message.Message):
    __slots__ = ("branding", "experimentation", "aggregation_period")
    BRANDING_FIELD_NUMBER: _ClassVar[int]
    EXPERIMENTATION_FIELD_NUMBER: _ClassVar[int]
    AGGREGATION_PERIOD_FIELD_NUMBER: _ClassVar[int]
    branding: BrandingUpdate
    experimentation: ExperimentationUpdate
    aggregation_period: AggregationPeriod
    def __init__(self, branding: _Optional[_Union[BrandingUpdate, _Mapping]] = ..., experimentation: _Optional[_Union[ExperimentationUpdate, _Mapping]] = ..., aggregation_period: _Optional[_Union[AggregationPeriod, str]] = ...) -> None: ...

class UpdateSettingsResponse(_message.Message):
    __slots__ = ("settings",)
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: Settings
    def __init__(self, settings: _Optional[_Union[Settings, _Mapping]] = ...) -> None: ...

class ListEnvironmentsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Environment(_message.Message):
    __slots__ = ("name", "key", "priority")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    priority: int
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., priority: _Optional[int] = ...) -> None: ...

class ListEnvironmentsResponse(_message.Message):
    __slots__ = ("environments",)
    ENVIRONMENTS_FIELD_NUMBER: _ClassVar[int]
    environments: _containers.RepeatedCompositeFieldContainer[Environment]
    def __init__(self, environments: _Optional[_Iterable[_Union[Environment, _Mapping]]] = ...) -> None: ...
