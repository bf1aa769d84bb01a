from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import options_pb2 as _options_pb2
from gamification.v1 import points_pb2 as _points_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PointsSystemStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTS_SYSTEM_STATUS_UNSPECIFIED: _ClassVar[PointsSystemStatus]
    POINTS_SYSTEM_STATUS_ACTIVE: _ClassVar[PointsSystemStatus]
    POINTS_SYSTEM_STATUS_ARCHIVED: _ClassVar[PointsSystemStatus]

class PointsTriggerTimeUnit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTS_TRIGGER_TIME_UNIT_UNSPECIFIED: _ClassVar[PointsTriggerTimeUnit]
    POINTS_TRIGGER_TIME_UNIT_HOURS: _ClassVar[PointsTriggerTimeUnit]
    POINTS_TRIGGER_TIME_UNIT_DAYS: _ClassVar[PointsTriggerTimeUnit]

class PointsBoostStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINTS_BOOST_STATUS_UNSPECIFIED: _ClassVar[PointsBoostStatus]
    POINTS_BOOST_STATUS_SCHEDULED: _ClassVar[PointsBoostStatus]
    POINTS_BOOST_STATUS_ACTIVE: _ClassVar[PointsBoostStatus]
    POINTS_BOOST_STATUS_FINISHED: _ClassVar[PointsBoostStatus]
    POINTS_BOOST_STATUS_ARCHIVED: _ClassVar[PointsBoostStatus]
POINTS_SYSTEM_STATUS_UNSPECIFIED: PointsSystemStatus
POINTS_SYSTEM_STATUS_ACTIVE: PointsSystemStatus
POINTS_SYSTEM_STATUS_ARCHIVED: PointsSystemStatus
POINTS_TRIGGER_TIME_UNIT_UNSPECIFIED: PointsTriggerTimeUnit
POINTS_TRIGGER_TIME_UNIT_HOURS: PointsTriggerTimeUnit
POINTS_TRIGGER_TIME_UNIT_DAYS: PointsTriggerTimeUnit
POINTS_BOOST_STATUS_UNSPECIFIED: PointsBoostStatus
POINTS_BOOST_STATUS_SCHEDULED: PointsBoostStatus
POINTS_BOOST_STATUS_ACTIVE: PointsBoostStatus
POINTS_BOOST_STATUS_FINISHED: PointsBoostStatus
POINTS_BOOST_STATUS_ARCHIVED: PointsBoostStatus

class PointsBadge(_message.Message):
    __slots__ = ("url",)
    URL_FIELD_NUMBER: _ClassVar[int]
    url: str
    def __init__(self, url: _Optional[str] = ...) -> None: ...

class PointsAttributeFilter(_message.Message):
    __slots__ = ("attribute_id", "attribute_value")
    ATTRIBUTE_ID_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTE_VALUE_FIELD_NUMBER: _ClassVar[int]
    attribute_id: str
    attribute_value: str
    def __init__(self, attribute_id: _Optional[str] = ..., attribute_value: _Optional[str] = ...) -> None: ...

class AdminPointsSystem(_message.Message):
    __slots__ = ("id", "name", "key", "description", "status", "badge", "max_points", "levels", "boosts", "triggers")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    description: str
    status: PointsSystemStatus
    badge: PointsBadge
    max_points: int
    levels: _containers.RepeatedCompositeFieldContainer[AdminPointsLevel]
    boosts: _containers.RepeatedCompositeFieldContainer[AdminPointsBoost]
    triggers: _containers.RepeatedCompositeFieldContainer[AdminPointsTrigger]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., status: _Optional[_Union[PointsSystemStatus, str]] = ..., badge: _Optional[_Union[PointsBadge, _Mapping]] = ..., max_points: _Optional[int] = ..., levels: _Optional[_Iterable[_Union[AdminPointsLevel, _Mapping]]] = ..., boosts: _Optional[_Iterable[_Union[AdminPointsBoost, _Mapping]]] = ..., triggers: _Optional[_Iterable[_Union[AdminPointsTrigger, _Mapping]]] = ...) -> None: ...

class AdminPointsLevel(_message.Message):
    __slots__ = ("id", "name", "key", "points", "description", "badge")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    points: int
    description: str
    badge: PointsBadge
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., points: _Optional[int] = ..., description: _Optional[str] = ..., badge: _Optional[_Union[PointsBadge, _Mapping]] = ...) -> None: ...

class AdminPointsTrigger(_message.Message):
    __slots__ = ("id", "type", "points", "status", "user_attributes", "metric_id", "metric_threshold", "event_attributes", "achievement_id", "streak_length", "time_unit", "time_interval", "block_if_out_of_points")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIT_FIELD_NUMBER: _ClassVar[int]
    TIME_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    BLOCK_IF_OUT_OF_POINTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: _points_pb2.PointsTriggerType
    points: int
    status: _points_pb2.PointsTriggerStatus
    user_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    metric_id: str
    metric_threshold: int
    event_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    achievement_id: str
    streak_length: int
    time_unit: PointsTriggerTimeUnit
    time_interval: int
    block_if_out_of_points: bool
    def __init__(self, id: _Optional[str] = ..., type: _Optional[_Union[_points_pb2.PointsTriggerType, str]] = ..., points: _Optional[int] = ..., status: _Optional[_Union[_points_pb2.PointsTriggerStatus, str]] = ..., user_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ..., metric_id: _Optional[str] = ..., metric_threshold: _Optional[int] = ..., event_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ..., achievement_id: _Optional[str] = ..., streak_length: _Optional[int] = ..., time_unit: _Optional[_Union[PointsTriggerTimeUnit, str]] = ..., time_interval: _Optional[int] = ..., block_if_out_of_points: bool = ...) -> None: ...

class AdminPointsBoost(_message.Message):
    __slots__ = ("id", "name", "status", "start", "end", "multiplier", "rounding", "user_id", "user_attributes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    status: PointsBoostStatus
    start: str
    end: str
    multiplier: float
    rounding: _points_pb2.BoostRounding
    user_id: str
    user_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., status: _Optional[_Union[PointsBoostStatus, str]] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., multiplier: _Optional[float] = ..., rounding: _Optional[_Union[_points_pb2.BoostRounding, str]] = ..., user_id: _Optional[str] = ..., user_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ...) -> None: ...

class CreatePointsLevelItem(_message.Message):
    __slots__ = ("name", "key", "points", "description", "badge")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    points: int
    description: str
    badge: PointsBadge
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., points: _Optional[int] = ..., description: _Optional[str] = ..., badge: _Optional[_Union[PointsBadge, _Mapping]] = ...) -> None: ...

class CreatePointsBoostItem(_message.Message):
    __slots__ = ("user_id", "name", "start", "end", "multiplier", "rounding", "user_attributes")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    name: str
    start: str
    end: str
    multiplier: float
    rounding: _points_pb2.BoostRounding
    user_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    def __init__(self, user_id: _Optional[str] = ..., name: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., multiplier: _Optional[float] = ..., rounding: _Optional[_Union[_points_pb2.BoostRounding, str]] = ..., user_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ...) -> None: ...

class CreatePointsTriggerItem(_message.Message):
    __slots__ = ("type", "points", "status", "user_attributes", "metric_id", "metric_threshold", "event_attributes", "achievement_id", "streak_length", "time_unit", "time_interval", "block_if_out_of_points")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIT_FIELD_NUMBER: _ClassVar[int]
    TIME_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    BLOCK_IF_OUT_OF_POINTS_FIELD_NUMBER: _ClassVar[int]
    type: _points_pb2.PointsTriggerType
    points: int
    status: _points_pb2.PointsTriggerStatus
    user_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    metric_id: str
    metric_threshold: int
    event_attributes: _containers.RepeatedCompositeFieldContainer[PointsAttributeFilter]
    achievement_id: str
    streak_length: int
    time_unit: PointsTriggerTimeUnit
    time_interval: int
    block_if_out_of_points: bool
    def __init__(self, type: _Optional[_Union[_points_pb2.PointsTriggerType, str]] = ..., points: _Optional[int] = ..., status: _Optional[_Union[_points_pb2.PointsTriggerStatus, str]] = ..., user_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ..., metric_id: _Optional[str] = ..., metric_threshold: _Optional[int] = ..., event_attributes: _Optional[_Iterable[_Union[PointsAttributeFilter, _Mapping]]] = ..., achievement_id: _Optional[str] = ..., streak_length: _Optional[int] = ..., time_unit: _Optional[_Union[PointsTriggerTimeUnit, str]] = ..., time_interval: _Optional[int] = ..., block_if_out_of_points: bool = ...) -> None: ...

class CreatePointsSystemItem(_message.Message):
    __slots__ = ("name", "key", "description", "badge", "max_points", "levels", "boosts", "triggers")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    description: str
    badge: PointsBadge
    max_points: int
    levels: _containers.RepeatedCompositeFieldContainer[CreatePointsLevelItem]
    boosts: _containers.RepeatedCompositeFieldContainer[CreatePointsBoostItem]
    triggers: _containers.RepeatedCompositeFieldContainer[CreatePointsTriggerItem]
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., badge: _Optional[_Union[PointsBadge, _Mapping]] = ..., max_points: _Optional[int] = ..., levels: _Optional[_Iterable[_Union[CreatePointsLevelItem, _Mapping]]] = ..., boosts: _Optional[_Iterable[_Union[CreatePointsBoostItem, _Mapping]]] = ..., triggers: _Optional[_Iterable[_Union[CreatePointsTriggerItem, _Mapping]]] = ...) -> None: ...

class CreatePointsSystemsRequest(_message.Message):
    __slots__ = ("systems",)
    SYSTEMS_FIELD_NUMBER: _ClassVar[int]
    systems: _containers.RepeatedCompositeFieldContainer[CreatePointsSystemItem]
    def __init__(self, systems: _Optional[_Iterable[_Union[CreatePointsSystemItem, _Mapping]]] = ...) -> None: ...

class CreatePointsSystemsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminPointsSystem]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminPointsSystem, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListPointsSystemsRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListPointsSystemsResponse(_message.Message):
    __slots__ = ("systems",)
    SYSTEMS_FIELD_NUMBER: _ClassVar[int]
    systems: _containers.RepeatedCompositeFieldContainer[AdminPointsSystem]
    def __init__(self, systems: _Optional[_Iterable[_Union[AdminPointsSystem, _Mapping]]] = ...) -> None: ...

class GetPointsSystemRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetPointsSystemResponse(_message.Message):
    __slots__ = ("system",)
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    system: AdminPointsSystem
    def __init__(self, system: _Optional[_Union[AdminPointsSystem, _Mapping]] = ...) -> None: ...

class UpdatePointsSystemItem(_message.Message):
    __slots__ = ("id", "name", "description", "badge", "max_points")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    badge: _struct_pb2.Value
    max_points: _struct_pb2.Value
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., badge: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., max_points: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class UpdatePointsSystemsRequest(_message.Message):
    __slots__ = ("systems",)
    SYSTEMS_FIELD_NUMBER: _ClassVar[int]
    systems: _containers.RepeatedCompositeFieldContainer[UpdatePointsSystemItem]
    def __init__(self, systems: _Optional[_Iterable[_Union[UpdatePointsSystemItem, _Mapping]]] = ...) -> None: ...

class UpdatePointsSystemsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminPointsSystem]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminPointsSystem, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeletePointsSystemsRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeletePointsSystemsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class CreatePointsTriggersRequest(_message.Message):
    __slots__ = ("system_id", "triggers")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    triggers: _containers.RepeatedCompositeFieldContainer[CreatePointsTriggerItem]
    def __init__(self, system_id: _Optional[str] = ..., triggers: _Optional[_Iterable[_Union[CreatePointsTriggerItem, _Mapping]]] = ...) -> None: ...

class CreatePointsTriggersResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminPointsTrigger]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminPointsTrigger, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListPointsTriggersRequest(_message.Message):
    __slots__ = ("system_id", "limit", "skip")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    limit: int
    skip: int
    def __init__(self, system_id: _Optional[str] = ..., limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListPointsTriggersResponse(_message.Message):
    __slots__ = ("triggers",)
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    triggers: _containers.RepeatedCompositeFieldContainer[AdminPointsTrigger]
    def __init__(self, triggers: _Optional[_Iterable[_Union[AdminPointsTrigger, _Mapping]]] = ...) -> None: ...

class GetPointsTriggerRequest(_message.Message):
    __slots__ = ("system_id", "id")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    id: str
    def __init__(self, system_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetPointsTriggerResponse(_message.Message):
    __slots__ = ("trigger",)
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    trigger: AdminPointsTrigger
    def __init__(self, trigger: _Optional[_Union[AdminPointsTrigger, _Mapping]] = ...) -> None: ...

class UpdatePointsTriggerItem(_message.Message):
    __slots__ = ("id", "type", "points", "status", "user_attributes", "metric_id", "metric_threshold", "event_attributes", "achievement_id", "streak_length", "time_unit", "time_interval", "block_if_out_of_points")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    TIME_UNIT_FIELD_NUMBER: _ClassVar[int]
    TIME_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    BLOCK_IF_OUT_OF_POINTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: _points_pb2.PointsTriggerType
    points: int
    status: _points_pb2.PointsTriggerStatus
    user_attributes: _struct_pb2.Value
    metric_id: str
    metric_threshold: int
    event_attributes: _struct_pb2.Value
    achievement_id: str
    streak_length: int
    time_unit: PointsTriggerTimeUnit
    time_interval: int
    block_if_out_of_points: bool
    def __init__(self, id: _Optional[str] = ..., type: _Optional[_Union[_points_pb2.PointsTriggerType, str]] = ..., points: _Optional[int] = ..., status: _Optional[_Union[_points_pb2.PointsTriggerStatus, str]] = ..., user_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., metric_id: _Optional[str] = ..., metric_threshold: _Optional[int] = ..., event_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., achievement_id: _Optional[str] = ..., streak_length: _Optional[int] = ..., time_unit: _Optional[_Union[PointsTriggerTimeUnit, str]] = ..., time_interval: _Optional[int] = ..., block_if_out_of_points: bool = ...) -> None: ...

class UpdatePointsTriggersRequest(_message.Message):
    __slots__ = ("system_id", "triggers")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    triggers: _containers.RepeatedCompositeFieldContainer[UpdatePointsTriggerItem]
    def __init__(self, system_id: _Optional[str] = ..., triggers: _Optional[_Iterable[_Union[UpdatePointsTriggerItem, _Mapping]]] = ...) -> None: ...

class UpdatePointsTriggersResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminPointsTrigger]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminPointsTrigger, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeletePointsTriggersRequest(_message.Message):
    __slots__ = ("system_id", "ids")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, system_id: _Optional[str] = ..., ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeletePointsTriggersResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class CreatePointsLevelsRequest(_message.Message):
    __slots__ = ("system_id", "levels")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    levels: _containers.RepeatedCompositeFieldContainer[CreatePointsLevelItem]
    def __init__(self, system_id: _Optional[str] = ..., levels: _Optional[_Iterable[_Union[CreatePointsLevelItem, _Mapping]]] = ...) -> None: ...

class CreatePointsLevelsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminPointsLevel]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminPointsLevel, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListPointsLevelsRequest(_message.Message):
    __slots__ = ("system_id", "limit", "skip")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    limit: int
    skip: int
    def __init__(self, system_id: _Optional[str] = ..., limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListPointsLevelsResponse(_message.Message):
    __slots__ = ("levels",)
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    levels: _containers.RepeatedCompositeFieldContainer[AdminPointsLevel]
    def __init__(self, levels: _Optional[_Iterable[_Union[AdminPointsLevel, _Mapping]]] = ...) -> None: ...

class GetPointsLevelRequest(_message.Message):
    __slots__ = ("system_id", "id")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    id: str
    def __init__(self, system_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetPointsLevelResponse(_message.Message):
    __slots__ = ("level",)
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    level: AdminPointsLevel
    def __init__(self, level: _Optional[_Union[AdminPointsLevel, _Mapping]] = ...) -> None: ...

class UpdatePointsLevelItem(_message.Message):
    __slots__ = ("id", "name", "points", "description", "badge")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    points: int
    description: str
    badge: _struct_pb2.Value
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., points: _Optional[int] = ..., description: _Optional[str] = ..., badge: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class UpdatePointsLevelsRequest(_message.Message):
    __slots__ = ("system_id", "levels")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    levels: _containers.RepeatedCompositeFieldContainer[UpdatePointsLevelItem]
    def __init__(self, system_id: _Optional[str] = ..., levels: _Optional[_Iterable[_Union[UpdatePointsLevelItem, _Mapping]]] = ...) -> None: ...

class UpdatePointsLevelsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminPointsLevel]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminPointsLevel, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeletePointsLevelsRequest(_message.Message):
    __slots__ = ("system_id", "ids")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, system_id: _Optional[str] = ..., ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeletePointsLevelsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class CreatePointsBoostsRequest(_message.Message):
    __slots__ = ("system_id", "boosts")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    boosts: _containers.RepeatedCompositeFieldContainer[CreatePointsBoostItem]
    def __init__(self, system_id: _Optional[str] = ..., boosts: _Optional[_Iterable[_Union[CreatePointsBoostItem, _Mapping]]] = ...) -> None: ...

class CreatePointsBoostsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminPointsBoost]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminPointsBoost, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListPointsBoostsRequest(_message.Message):
    __slots__ = ("system_id", "limit", "skip")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    limit: int
    skip: int
    def __init__(self, system_id: _Optional[str] = ..., limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListPointsBoostsResponse(_message.Message):
    __slots__ = ("boosts",)
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    boosts: _containers.RepeatedCompositeFieldContainer[AdminPointsBoost]
    def __init__(self, boosts: _Optional[_Iterable[_Union[AdminPointsBoost, _Mapping]]] = ...) -> None: ...

class GetPointsBoostRequest(_message.Message):
    __slots__ = ("system_id", "id")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    id: str
    def __init__(self, system_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class GetPointsBoostResponse(_message.Message):
    __slots__ = ("boost",)
    BOOST_FIELD_NUMBER: _ClassVar[int]
    boost: AdminPointsBoost
    def __init__(self, boost: _Optional[_Union[AdminPointsBoost, _Mapping]] = ...) -> None: ...

class UpdatePointsBoostItem(_message.Message):
    __slots__ = ("id", "name", "start", "end", "multiplier", "rounding", "user_attributes", "archived")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    ROUNDING_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    start: str
    end: _struct_pb2.Value
    multiplier: float
    rounding: _points_pb2.BoostRounding
    user_attributes: _struct_pb2.Value
    archived: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., multiplier: _Optional[float] = ..., rounding: _Optional[_Union[_points_pb2.BoostRounding, str]] = ..., user_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., archived: bool = ...) -> None: ...

class UpdatePointsBoostsRequest(_message.Message):
    __slots__ = ("system_id", "boosts")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    boosts: _containers.RepeatedCompositeFieldContainer[UpdatePointsBoostItem]
    def __init__(self, system_id: _Optional[str] = ..., boosts: _Optional[_Iterable[_Union[UpdatePointsBoostItem, _Mapping]]] = ...) -> None: ...

class UpdatePointsBoostsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminPointsBoost]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminPointsBoost, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeletePointsBoostsRequest(_message.Message):
    __slots__ = ("system_id", "ids")
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    system_id: str
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, system_id: _Optional[str] = ..., ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeletePointsBoostsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...
