from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import leaderboard_pb2 as _leaderboard_pb2
from gamification.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AdminLeaderboard(_message.Message):
    __slots__ = ("id", "name", "key", "description", "status", "rank_by", "metric_id", "points_system_id", "max_participants", "start", "end", "start_time", "end_time", "breakdown_attributes", "run_unit", "run_interval", "user_attributes")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    description: str
    status: _leaderboard_pb2.LeaderboardStatus
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    metric_id: str
    points_system_id: str
    max_participants: int
    start: str
    end: str
    start_time: str
    end_time: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    run_unit: _leaderboard_pb2.LeaderboardRunUnit
    run_interval: int
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminAttributeFilter]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., status: _Optional[_Union[_leaderboard_pb2.LeaderboardStatus, str]] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., metric_id: _Optional[str] = ..., points_system_id: _Optional[str] = ..., max_participants: _Optional[int] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., run_unit: _Optional[_Union[_leaderboard_pb2.LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AdminAttributeFilter, _Mapping]]] = ...) -> None: ...

class CreateLeaderboardItem(_message.Message):
    __slots__ = ("name", "key", "description", "status", "rank_by", "metric_id", "points_system_id", "max_participants", "start", "end", "start_time", "end_time", "breakdown_attributes", "run_unit", "run_interval", "user_attributes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    name: str
    key: str
    description: str
    status: _leaderboard_pb2.LeaderboardStatus
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    metric_id: str
    points_system_id: str
    max_participants: int
    start: str
    end: str
    start_time: str
    end_time: str
    breakdown_attributes: _containers.RepeatedScalarFieldContainer[str]
    run_unit: _leaderboard_pb2.LeaderboardRunUnit
    run_interval: int
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminAttributeFilter]
    def __init__(self, name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[str] = ..., status: _Optional[_Union[_leaderboard_pb2.LeaderboardStatus, str]] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., metric_id: _Optional[str] = ..., points_system_id: _Optional[str] = ..., max_participants: _Optional[int] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., start_time: _Optional[str] = ..., end_time: _Optional[str] = ..., breakdown_attributes: _Optional[_Iterable[str]] = ..., run_unit: _Optional[_Union[_leaderboard_pb2.LeaderboardRunUnit, str]] = ..., run_interval: _Optional[int] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AdminAttributeFilter, _Mapping]]] = ...) -> None: ...

class CreateLeaderboardsRequest(_message.Message):
    __slots__ = ("leaderboards",)
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    leaderboards: _containers.RepeatedCompositeFieldContainer[CreateLeaderboardItem]
    def __init__(self, leaderboards: _Optional[_Iterable[_Union[CreateLeaderboardItem, _Mapping]]] = ...) -> None: ...

class CreateLeaderboardsResponse(_message.Message):
    __slots__ = ("created", "issues")
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    created: _containers.RepeatedCompositeFieldContainer[AdminLeaderboard]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, created: _Optional[_Iterable[_Union[AdminLeaderboard, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ListLeaderboardsRequest(_message.Message):
    __slots__ = ("limit", "skip")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    limit: int
    skip: int
    def __init__(self, limit: _Optional[int] = ..., skip: _Optional[int] = ...) -> None: ...

class ListLeaderboardsResponse(_message.Message):
    __slots__ = ("leaderboards",)
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    leaderboards: _containers.RepeatedCompositeFieldContainer[AdminLeaderboard]
    def __init__(self, leaderboards: _Optional[_Iterable[_Union[AdminLeaderboard, _Mapping]]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("leaderboard",)
    LEADERBOARD_FIELD_NUMBER: _ClassVar[int]
    leaderboard: AdminLeaderboard
    def __init__(self, leaderboard: _Optional[_Union[AdminLeaderboard, _Mapping]] = ...) -> None: ...

class UpdateLeaderboardItem(_message.Message):
    __slots__ = ("id", "name", "key", "description", "status", "rank_by", "metric_id", "points_system_id", "max_participants", "start", "end", "start_time", "end_time", "breakdown_attributes", "run_unit", "run_interval", "user_attributes", "reset_max_participants")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RANK_BY_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    BREAKDOWN_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    RUN_UNIT_FIELD_NUMBER: _ClassVar[int]
    RUN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    RESET_MAX_PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    key: str
    description: _struct_pb2.Value
    status: _leaderboard_pb2.LeaderboardStatus
    rank_by: _leaderboard_pb2.LeaderboardRankBy
    metric_id: str
    points_system_id: str
    max_participants: int
    start: str
    end: _struct_pb2.Value
    start_time: _struct_pb2.Value
    end_time: _struct_pb2.Value
    breakdown_attributes: _struct_pb2.Value
    run_unit: _struct_pb2.Value
    run_interval: int
    user_attributes: _struct_pb2.Value
    reset_max_participants: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., description: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., status: _Optional[_Union[_leaderboard_pb2.LeaderboardStatus, str]] = ..., rank_by: _Optional[_Union[_leaderboard_pb2.LeaderboardRankBy, str]] = ..., metric_id: _Optional[str] = ..., points_system_id: _Optional[str] = ..., max_participants: _Optional[int] = ..., start: _Optional[str] = ..., end: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., start_time: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., end_time: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., breakdown_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., run_unit: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., run_interval: _Optional[int] = ..., user_attributes: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., reset_max_participants: bool = ...) -> None: ...

class UpdateLeaderboardsRequest(_message.Message):
    __slots__ = ("leaderboards",)
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    leaderboards: _containers.RepeatedCompositeFieldContainer[UpdateLeaderboardItem]
    def __init__(self, leaderboards: _Optional[_Iterable[_Union[UpdateLeaderboardItem, _Mapping]]] = ...) -> None: ...

class UpdateLeaderboardsResponse(_message.Message):
    __slots__ = ("updated", "issues")
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    updated: _containers.RepeatedCompositeFieldContainer[AdminLeaderboard]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, updated: _Optional[_Iterable[_Union[AdminLeaderboard, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class DeleteLeaderboardsRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteLeaderboardsResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...
