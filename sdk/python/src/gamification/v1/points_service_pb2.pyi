from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import application_service_pb2 as _application_service_pb2
from gamification.v1 import points_pb2 as _points_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UserPoints(_message.Message):
    __slots__ = ("id", "key", "name", "description", "badge_url", "max_points", "total", "level", "awards")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    AWARDS_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    name: str
    description: str
    badge_url: str
    max_points: int
    total: int
    level: _points_pb2.PointsLevel
    awards: _containers.RepeatedCompositeFieldContainer[_points_pb2.PointsAward]
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., max_points: _Optional[int] = ..., total: _Optional[int] = ..., level: _Optional[_Union[_points_pb2.PointsLevel, _Mapping]] = ..., awards: _Optional[_Iterable[_Union[_points_pb2.PointsAward, _Mapping]]] = ...) -> None: ...

class GetUserPointsRequest(_message.Message):
    __slots__ = ("id", "key", "awards")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    AWARDS_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    awards: int
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., awards: _Optional[int] = ...) -> None: ...

class GetUserPointsResponse(_message.Message):
    __slots__ = ("points",)
    POINTS_FIELD_NUMBER: _ClassVar[int]
    points: UserPoints
    def __init__(self, points: _Optional[_Union[UserPoints, _Mapping]] = ...) -> None: ...

class GetUserPointsEventSummaryRequest(_message.Message):
    __slots__ = ("id", "key", "aggregation", "start_date", "end_date")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    AGGREGATION_FIELD_NUMBER: _ClassVar[int]
    START_DATE_FIELD_NUMBER: _ClassVar[int]
    END_DATE_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    aggregation: _application_service_pb2.SummaryAggregation
    start_date: str
    end_date: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ..., aggregation: _Optional[_Union[_application_service_pb2.SummaryAggregation, str]] = ..., start_date: _Optional[str] = ..., end_date: _Optional[str] = ...) -> None: ...

class GetUserPointsEventSummaryResponse(_message.Message):
    __slots__ = ("periods",)
    PERIODS_FIELD_NUMBER: _ClassVar[int]
    periods: _containers.RepeatedCompositeFieldContainer[_application_service_pb2.SummaryPeriod]
    def __init__(self, periods: _Optional[_Iterable[_Union[_application_service_pb2.SummaryPeriod, _Mapping]]] = ...) -> None: ...

class ListUserPointsBoostsRequest(_message.Message):
    __slots__ = ("id", "key")
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    id: str
    key: str
    def __init__(self, id: _Optional[str] = ..., key: _Optional[str] = ...) -> None: ...

class ListUserPointsBoostsResponse(_message.Message):
    __slots__ = ("boosts",)
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    boosts: _containers.RepeatedCompositeFieldContainer[_points_pb2.PointsBoost]
    def __init__(self, boosts: _Optional[_Iterable[_Union[_points_pb2.PointsBoost, _Mapping]]] = ...) -> None: ...

class PointsSystem(_message.Message):
    __slots__ = ("id", "name", "description", "badge_url", "max_points", "triggers")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_POINTS_FIELD_NUMBER: _ClassVar[int]
    TRIGGERS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    badge_url: str
    max_points: int
    triggers: _containers.RepeatedCompositeFieldContainer[_points_pb2.PointsTrigger]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., max_points: _Optional[int] = ..., triggers: _Optional[_Iterable[_Union[_points_pb2.PointsTrigger, _Mapping]]] = ...) -> None: ...

class DescribePointsSystemRequest(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class DescribePointsSystemResponse(_message.Message):
    __slots__ = ("system",)
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    system: PointsSystem
    def __init__(self, system: _Optional[_Union[PointsSystem, _Mapping]] = ...) -> None: ...

class ListGlobalPointsBoostsRequest(_message.Message):
    __slots__ = ("key", "include_finished")
    KEY_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    key: str
    include_finished: bool
    def __init__(self, key: _Optional[str] = ..., include_finished: bool = ...) -> None: ...

class ListGlobalPointsBoostsResponse(_message.Message):
    __slots__ = ("boosts",)
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    boosts: _containers.RepeatedCompositeFieldContainer[_points_pb2.PointsBoost]
    def __init__(self, boosts: _Optional[_Iterable[_Union[_points_pb2.PointsBoost, _Mapping]]] = ...) -> None: ...

class ListPointsSystemLevelsRequest(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class ListPointsSystemLevelsResponse(_message.Message):
    __slots__ = ("levels",)
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    levels: _containers.RepeatedCompositeFieldContainer[_points_pb2.PointsLevel]
    def __init__(self, levels: _Optional[_Iterable[_Union[_points_pb2.PointsLevel, _Mapping]]] = ...) -> None: ...

class PointsLevelCount(_message.Message):
    __slots__ = ("level", "users")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    level: _points_pb2.PointsLevel
    users: int
    def __init__(self, level: _Optional[_Union[_points_pb2.PointsLevel, _Mapping]] = ..., users: _Optional[int] = ...) -> None: ...

class GetPointsLevelSummaryRequest(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class GetPointsLevelSummaryResponse(_message.Message):
    __slots__ = ("levels",)
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    levels: _containers.RepeatedCompositeFieldContainer[PointsLevelCount]
    def __init__(self, levels: _Optional[_Iterable[_Union[PointsLevelCount, _Mapping]]] = ...) -> None: ...

class PointsRange(_message.Message):
    __slots__ = ("to", "users")
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    USERS_FIELD_NUMBER: _ClassVar[int]
    to: int
    users: int
    def __init__(self, to: _Optional[int] = ..., users: _Optional[int] = ..., **kwargs) -> None: ...

class GetPointsSummaryRequest(_message.Message):
    __slots__ = ("key", "user_attributes")
    KEY_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    key: str
    user_attributes: str
    def __init__(self, key: _Optional[str] = ..., user_attributes: _Optional[str] = ...) -> None: ...

class GetPointsSummaryResponse(_message.Message):
    __slots__ = ("ranges",)
    RANGES_FIELD_NUMBER: _ClassVar[int]
    ranges: _containers.RepeatedCompositeFieldContainer[PointsRange]
    def __init__(self, ranges: _Optional[_Iterable[_Union[PointsRange, _Mapping]]] = ...) -> None: ...
