from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import leaderboard_pb2 as _leaderboard_pb2
from gamification.v1 import options_pb2 as _options_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Leaderboard(_message.Message):
    __slots__ = ("id", "name", "key", "rank_by", "breakdown_attribute", "breakdown_attributes", "metric_key", "metric_name", "points_system_key", "points_system_name", "description", "start", "end", "start_time", "end_time", "max_participants", "run_unit", "run_interval", "status", "user_attributes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_KEY_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    breakdown_attribute: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    metric_key: str
    metric_name: str
    points_system_key: str
    points_system_name: str
    description: str
    start: str
    end: str
    start_time: str
    end_time: str
    max_participants: int
    run_unit: _leaderboard_pb2.LeaderboardRunUnit
    run_interval: int
    status: _leaderboard_pb2.LeaderboardStatus
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., breakdown_attribute: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., metric_key: _Optional[str] = ..., metric_name: _Optional[str] = ..., points_system_key: _Optional[str] = ..., points_system_name: _Optional[str] = ..., description: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., max_participants: _Optional[int] = ..., run_unit: _Optional[_Union[_leaderboard_pb2.LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., status: _Optional[_Union[_leaderboard_pb2.LeaderboardStatus, str]] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ...) -> None: ...

class LeaderboardRanking(_message.Message):
    __slots__ = ("user_id", "user_name", "rank", "value")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_NAME_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    user_name: str
    rank: int
    value: float
    def __init__(self, user_id: _Optional[str] = ..., user_name: _Optional[str] = ..., rank: _Optional[int] = ..., value: _Optional[float] = ...) -> None: ...

class LeaderboardHistoryItem(_message.Message):
    __slots__ = ("date", "timestamp", "previous_rank", "rank", "previous_value", "value")
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_RANK_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    date: str
    timestamp: str
    previous_rank: int
    rank: int
    previous_value: float
    value: float
    def __init__(self, date: _Optional[str] = ..., timestamp: _Optional[str] = ..., previous_rank: _Optional[int] = ..., rank: _Optional[int] = ..., previous_value: _Optional[float] = ..., value: _Optional[float] = ...) -> None: ...

class ListPublicLeaderboardsRequest(_message.Message):
    __slots__ = ("include_finished",)
    INCLUDE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    include_finished: bool
    def __init__(self, include_finished: bool = ...) -> None: ...

class ListPublicLeaderboardsResponse(_message.Message):
    __slots__ = ("leaderboards",)
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    leaderboards: _containers.RepeatedCompositeFieldContainer[Leaderboard]
    def __init__(self, leaderboards: _Optional[_Iterable[_Union[Leaderboard, _Mapping]]] = ...) -> None: ...

class GetLeaderboardRankingsRequest(_message.Message):
    __slots__ = ("key", "offset", "limit", "run", "user_id", "user_attributes")
    KEY_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    key: str
    offset: int
    limit: int
    run: str
    user_id: str
    user_attributes: str
    def __init__(self, key: _Optional[str] = ..., offset: _Optional[int] = ..., limit: _Optional[int] = ..., run: _Optional[str] = ..., user_id: _Optional[str] = ..., user_attributes: _Optional[str] = ...) -> None: ...

class GetLeaderboardRankingsResponse(_message.Message):
    __slots__ = ("leaderboard",)
    LEADERBOARD_FIELD_NUMBER: _ClassVar[int]
    leaderboard: LeaderboardWithRankings
    def __init__(self, leaderboard: _Optional[_Union[LeaderboardWithRankings, _Mapping]] = ...) -> None: ...

class LeaderboardWithRankings(_message.Message):
    __slots__ = ("id", "name", "key", "rank_by", "breakdown_attribute", "breakdown_attributes", "metric_key", "metric_name", "points_system_key", "points_system_name", "description", "start", "end", "start_time", "end_time", "max_participants", "run_unit", "run_interval", "status", "rankings", "breakdown_attribute_values", "participants", "run_start", "run_end", "user_attributes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_KEY_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RANKINGS_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_VALUES_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    RUN_START_FIELD_NUMBER: _ClassVar[int]
    RUN_END_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    breakdown_attribute: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    metric_key: str
    metric_name: str
    points_system_key: str
    points_system_name: str
    description: str
    start: str
    end: str
    start_time: str
    end_time: str
    max_participants: int
    run_unit: _leaderboard_pb2.LeaderboardRunUnit
    run_interval: int
    status: _leaderboard_pb2.LeaderboardStatus
    rankings: _containers.RepeatedCompositeFieldContainer[LeaderboardRanking]
    breakdown_attribute_values: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    participants: int
    run_start: str
    run_end: str
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., breakdown_attribute: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., metric_key: _Optional[str] = ..., metric_name: _Optional[str] = ..., points_system_key: _Optional[str] = ..., points_system_name: _Optional[str] = ..., description: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., max_participants: _Optional[int] = ..., run_unit: _Optional[_Union[_leaderboard_pb2.LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., status: _Optional[_Union[_leaderboard_pb2.LeaderboardStatus, str]] = ..., rankings: _Optional[_Iterable[_Union[LeaderboardRanking, _Mapping]]] = ..., breakdown_attribute_values: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., participants: _Optional[int] = ..., run_start: _Optional[str] = ..., run_end: _Optional[str] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ...) -> None: ...

class GetUserLeaderboardRequest(_message.Message):
    __slots__ = ("id", "key", "run", "num_events")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    NUM_EVENTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    run: str
    num_events: int
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., run: _Optional[str] = ..., num_events: _Optional[int] = ...) -> None: ...

class GetUserLeaderboardResponse(_message.Message):
    __slots__ = ("leaderboard",)
    LEADERBOARD_FIELD_NUMBER: _ClassVar[int]
    leaderboard: UserLeaderboard
    def __init__(self, leaderboard: _Optional[_Union[UserLeaderboard, _Mapping]] = ...) -> None: ...

class UserLeaderboard(_message.Message):
    __slots__ = ("id", "name", "key", "rank_by", "breakdown_attribute", "breakdown_attributes", "metric_key", "metric_name", "points_system_key", "points_system_name", "description", "start", "end", "start_time", "end_time", "max_participants", "run_unit", "run_interval", "rank", "value", "history", "breakdown_attribute_values", "run_start", "run_end", "user_attributes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    METRIC_KEY_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_KEY_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTE_VALUES_FIELD_NUMBER: _ClassVar[int]
    RUN_START_FIELD_NUMBER: _ClassVar[int]
    RUN_END_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    breakdown_attribute: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    metric_key: str
    metric_name: str
    points_system_key: str
    points_system_name: str
    description: str
    start: str
    end: str
    start_time: str
    end_time: str
    max_participants: int
    run_unit: _leaderboard_pb2.LeaderboardRunUnit
    run_interval: int
    rank: int
    value: float
    history: _containers.RepeatedCompositeFieldContainer[LeaderboardHistoryItem]
    breakdown_attribute_values: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    run_start: str
    run_end: str
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., breakdown_attribute: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., metric_key: _Optional[str] = ..., metric_name: _Optional[str] = ..., points_system_key: _Optional[str] = ..., points_system_name: _Optional[str] = ..., description: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., max_participants: _Optional[int] = ..., run_unit: _Optional[_Union[_leaderboard_pb2.LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., rank: _Optional[int] = ..., value: _Optional[float] = ..., history: _Optional[_Iterable[_Union[LeaderboardHistoryItem, _Mapping]]] = ..., breakdown_attribute_values: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., run_start: _Optional[str] = ..., run_end: _Optional[str] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ...) -> None: ...
