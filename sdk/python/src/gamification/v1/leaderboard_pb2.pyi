from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import options_pb2 as _options_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LeaderboardRankBy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEADERBOARD_RANK_BY_UNSPECIFIED: _ClassVar[LeaderboardRankBy]
    LEADERBOARD_RANK_BY_POINTS: _ClassVar[LeaderboardRankBy]
    LEADERBOARD_RANK_BY_STREAK: _ClassVar[LeaderboardRankBy]
    LEADERBOARD_RANK_BY_METRIC: _ClassVar[LeaderboardRankBy]

class LeaderboardRunUnit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEADERBOARD_RUN_UNIT_UNSPECIFIED: _ClassVar[LeaderboardRunUnit]
    LEADERBOARD_RUN_UNIT_DAY: _ClassVar[LeaderboardRunUnit]
    LEADERBOARD_RUN_UNIT_MONTH: _ClassVar[LeaderboardRunUnit]
    LEADERBOARD_RUN_UNIT_YEAR: _ClassVar[LeaderboardRunUnit]

class LeaderboardStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEADERBOARD_STATUS_UNSPECIFIED: _ClassVar[LeaderboardStatus]
    LEADERBOARD_STATUS_INACTIVE: _ClassVar[LeaderboardStatus]
    LEADERBOARD_STATUS_SCHEDULED: _ClassVar[LeaderboardStatus]
    LEADERBOARD_STATUS_ACTIVE: _ClassVar[LeaderboardStatus]
    LEADERBOARD_STATUS_FINISHED: _ClassVar[LeaderboardStatus]
LEADERBOARD_RANK_BY_UNSPECIFIED: LeaderboardRankBy
LEADERBOARD_RANK_BY_POINTS: LeaderboardRankBy
LEADERBOARD_RANK_BY_STREAK: LeaderboardRankBy
LEADERBOARD_RANK_BY_METRIC: LeaderboardRankBy
LEADERBOARD_RUN_UNIT_UNSPECIFIED: LeaderboardRunUnit
LEADERBOARD_RUN_UNIT_DAY: LeaderboardRunUnit
LEADERBOARD_RUN_UNIT_MONTH: LeaderboardRunUnit
LEADERBOARD_RUN_UNIT_YEAR: LeaderboardRunUnit
LEADERBOARD_STATUS_UNSPECIFIED: LeaderboardStatus
LEADERBOARD_STATUS_INACTIVE: LeaderboardStatus
LEADERBOARD_STATUS_SCHEDULED: LeaderboardStatus
LEADERBOARD_STATUS_ACTIVE: LeaderboardStatus
LEADERBOARD_STATUS_FINISHED: LeaderboardStatus

class LeaderboardChange(_message.Message):
    __slots__ = ("id", "key", "name", "description", "rank_by", "breakdown_attribute", "breakdown_attributes", "metric_key", "metric_name", "points_system_key", "points_system_name", "start", "end", "start_time", "end_time", "max_participants", "run_unit", "run_interval", "threshold", "rank", "previous_rank", "breakdown_attribute_values", "user_attributes", "status", "breakdown_attribute_value")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_KEY_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_NAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_RANK_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_VALUES_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_VALUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    name: str
    description: str
    rank_by: LeaderboardRankBy
    breakdown_attribute: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    metric_key: str
    metric_name: str
    points_system_key: str
    points_system_name: str
    start: str
    end: str
    start_time: str
    end_time: str
    max_participants: int
    run_unit: LeaderboardRunUnit
    run_interval: int
    threshold: float
    rank: int
    previous_rank: int
    breakdown_attribute_values: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    status: LeaderboardStatus
    breakdown_attribute_value: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., rank_by: _Optional[_Union[LeaderboardRankBy, str]] = ..., breakdown_attribute: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., metric_key: _Optional[str] = ..., metric_name: _Optional[str] = ..., points_system_key: _Optional[str] = ..., points_system_name: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., max_participants: _Optional[int] = ..., run_unit: _Optional[_Union[LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., threshold: _Optional[float] = ..., rank: _Optional[int] = ..., previous_rank: _Optional[int] = ..., breakdown_attribute_values: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., status: _Optional[_Union[LeaderboardStatus, str]] = ..., breakdown_attribute_value: _Optional[str] = ...) -> None: ...
