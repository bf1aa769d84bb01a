import datetime

from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import options_pb2 as _options_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PointsTriggerType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTS_TRIGGER_TYPE_UNSPECIFIED: _ClassVar[PointsTriggerType]
    POINTS_TRIGGER_TYPE_METRIC: _ClassVar[PointsTriggerType]
    POINTS_TRIGGER_TYPE_ACHIEVEMENT: _ClassVar[PointsTriggerType]
    POINTS_TRIGGER_TYPE_STREAK: _ClassVar[PointsTriggerType]
    POINTS_TRIGGER_TYPE_TIME: _ClassVar[PointsTriggerType]
    POINTS_TRIGGER_TYPE_USER_CREATION: _ClassVar[PointsTriggerType]

class PointsTriggerStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTS_TRIGGER_STATUS_UNSPECIFIED: _ClassVar[PointsTriggerStatus]
    POINTS_TRIGGER_STATUS_ACTIVE: _ClassVar[PointsTriggerStatus]
    POINTS_TRIGGER_STATUS_INACTIVE: _ClassVar[PointsTriggerStatus]
    POINTS_TRIGGER_STATUS_ARCHIVED: _ClassVar[PointsTriggerStatus]

class TimeUnit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIME_UNIT_UNSPECIFIED: _ClassVar[TimeUnit]
    TIME_UNIT_HOUR: _ClassVar[TimeUnit]
    TIME_UNIT_DAY: _ClassVar[TimeUnit]

class BoostRounding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOOST_ROUNDING_UNSPECIFIED: _ClassVar[BoostRounding]
    BOOST_ROUNDING_DOWN: _ClassVar[BoostRounding]
    BOOST_ROUNDING_UP: _ClassVar[BoostRounding]
    BOOST_ROUNDING_NEAREST: _ClassVar[BoostRounding]
POINTS_TRIGGER_TYPE_UNSPECIFIED: PointsTriggerType
POINTS_TRIGGER_TYPE_METRIC: PointsTriggerType
POINTS_TRIGGER_TYPE_ACHIEVEMENT: PointsTriggerType
POINTS_TRIGGER_TYPE_STREAK: PointsTriggerType
POINTS_TRIGGER_TYPE_TIME: PointsTriggerType
POINTS_TRIGGER_TYPE_USER_CREATION: PointsTriggerType
POINTS_TRIGGER_STATUS_UNSPECIFIED: PointsTriggerStatus
POINTS_TRIGGER_STATUS_ACTIVE: PointsTriggerStatus
POINTS_TRIGGER_STATUS_INACTIVE: PointsTriggerStatus
POINTS_TRIGGER_STATUS_ARCHIVED: PointsTriggerStatus
TIME_UNIT_UNSPECIFIED: TimeUnit
TIME_UNIT_HOUR: TimeUnit
TIME_UNIT_DAY: TimeUnit
BOOST_ROUNDING_UNSPECIFIED: BoostRounding
BOOST_ROUNDING_DOWN: BoostRounding
BOOST_ROUNDING_UP: BoostRounding
BOOST_ROUNDING_NEAREST: BoostRounding

class PointsLevel(_message.Message):
    __slots__ = ("id", "key", "name", "description", "badge_url", "points")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    name: str
    description: str
    badge_url: str
    points: int
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class PointsTrigger(_message.Message):
    __slots__ = ("id", "type", "points", "status", "achievement_id", "metric_id", "metric_name", "metric_threshold", "streak_length_threshold", "achievement_name", "time_unit", "time_interval", "user_attributes", "event_attributes", "created", "updated")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    METRIC_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_NAME_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIT_FIELD_NUMBER: _ClassVar[int]
    TIME_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: PointsTriggerType
    points: int
    status: PointsTriggerStatus
    achievement_id: str
    metric_id: str
    metric_name: str
    metric_threshold: float
    streak_length_threshold: int
    achievement_name: str
    time_unit: TimeUnit
    time_interval: int
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    event_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    created: _timestamp_pb2.Timestamp
    updated: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., type: _Optional[_Union[PointsTriggerType, str]] = ..., points: _Optional[int] = ..., status: _Optional[_Union[PointsTriggerStatus, str]] = ..., achievement_id: _Optional[str] = ..., metric_id: _Optional[str] = ..., metric_name: _Optional[str] = ..., metric_threshold: _Optional[float] = ..., streak_length_threshold: _Optional[int] = ..., achievement_name: _Optional[str] = ..., time_unit: _Optional[_Union[TimeUnit, str]] = ..., time_interval: _Optional[int] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., event_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., updated: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PointsBoost(_message.Message):
    __slots__ = ("id", "name", "status", "start", "end", "multiplier", "rounding")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    status: str
    start: str
    end: str
    multiplier: float
    rounding: BoostRounding
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., status: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., multiplier: _Optional[float] = ..., rounding: _Optional[_Union[BoostRounding, str]] = ...) -> None: ...

class PointsAward(_message.Message):
    __slots__ = ("id", "awarded", "date", "total", "trigger", "boosts")
    ID_FIELD_NUMBER: _ClassVar[int]
    AWARDED_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    awarded: int
    date: _timestamp_pb2.Timestamp
    total: int
    trigger: PointsTrigger
    boosts: _containers.RepeatedCompositeFieldContainer[PointsBoost]
    def __init__(self, id: _Optional[str] = ..., awarded: _Optional[int] = ..., date: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., total: _Optional[int] = ..., trigger: _Optional[_Union[PointsTrigger, _Mapping]] = ..., boosts: _Optional[_Iterable[_Union[PointsBoost, _Mapping]]] = ...) -> None: ...

class PointsChange(_message.Message):
    __slots__ = ("id", "key", "name", "description", "badge_url", "max_points", "total", "level", "added", "awards", "level_changed")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    AWARDS_FIELD_NUMBER: _ClassVar[int]
    LEVEL_CHANGED_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    name: str
    description: str
    badge_url: str
    max_points: int
    total: int
    level: PointsLevel
    added: int
    awards: _containers.RepeatedCompositeFieldContainer[PointsAward]
    level_changed: bool
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., max_points: _Optional[int] = ..., total: _Optional[int] = ..., level: _Optional[_Union[PointsLevel, _Mapping]] = ..., added: _Optional[int] = ..., awards: _Optional[_Iterable[_Union[PointsAward, _Mapping]]] = ..., level_changed: bool = ...) -> None: ...
