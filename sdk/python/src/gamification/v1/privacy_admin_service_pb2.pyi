from buf.validate import validate_pb2 as _validate_pb2
from gamification.v1 import achievement_pb2 as _achievement_pb2
from gamification.v1 import application_service_pb2 as _application_service_pb2
from gamification.v1 import common_pb2 as _common_pb2
from gamification.v1 import leaderboard_service_pb2 as _leaderboard_service_pb2
from gamification.v1 import points_admin_service_pb2 as _points_admin_service_pb2
from gamification.v1 import points_service_pb2 as _points_service_pb2
from gamification.v1 import user_pb2 as _user_pb2
from gamification.v1 import validation_pb2 as _validation_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EraseUserRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class EraseUserResponse(_message.Message):
    __slots__ = ("id", "erased")
    ID_FIELD_NUMBER: _ClassVar[int]
    ERASED_FIELD_NUMBER: _ClassVar[int]
    id: str
    erased: bool
    def __init__(self, id: _Optional[str] = ..., erased: bool = ...) -> None: ...

class EraseUsersRequest(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ids: _Optional[_Iterable[str]] = ...) -> None: ...

class EraseUsersResponse(_message.Message):
    __slots__ = ("deleted", "issues")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    deleted: _containers.RepeatedCompositeFieldContainer[_common_pb2.DeletedResource]
    issues: _containers.RepeatedCompositeFieldContainer[_common_pb2.AdminIssue]
    def __init__(self, deleted: _Optional[_Iterable[_Union[_common_pb2.DeletedResource, _Mapping]]] = ..., issues: _Optional[_Iterable[_Union[_common_pb2.AdminIssue, _Mapping]]] = ...) -> None: ...

class ExportUserRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class ExportedWebhookDelivery(_message.Message):
    __slots__ = ("message_id", "endpoint_id", "type", "status", "body")
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    message_id: str
    endpoint_id: str
    type: str
    status: str
    body: str
    def __init__(self, message_id: _Optional[str] = ..., endpoint_id: _Optional[str] = ..., type: _Optional[str] = ..., status: _Optional[str] = ..., body: _Optional[str] = ...) -> None: ...

class ExportUserResponse(_message.Message):
    __slots__ = ("user", "metrics", "achievements", "streak", "points", "preferences", "leaderboards", "state", "idempotency_records", "webhook_deliveries", "boosts")
    USER_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENTS_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    LEADERBOARDS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_RECORDS_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    user: _user_pb2.User
    metrics: _containers.RepeatedCompositeFieldContainer[_application_service_pb2.UserMetric]
    achievements: _containers.RepeatedCompositeFieldContainer[_achievement_pb2.Achievement]
    streak: _application_service_pb2.UserStreak
    points: _containers.RepeatedCompositeFieldContainer[_points_service_pb2.UserPoints]
    preferences: _application_service_pb2.UserPreferences
    leaderboards: _containers.RepeatedCompositeFieldContainer[_leaderboard_service_pb2.UserLeaderboard]
    state: _struct_pb2.Struct
    idempotency_records: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    webhook_deliveries: _containers.RepeatedCompositeFieldContainer[ExportedWebhookDelivery]
    boosts: _containers.RepeatedCompositeFieldContainer[ExportedPointsBoost]
    def __init__(self, user: _Optional[_Union[_user_pb2.User, _Mapping]] = ..., metrics: _Optional[_Iterable[_Union[_application_service_pb2.UserMetric, _Mapping]]] = ..., achievements: _Optional[_Iterable[_Union[_achievement_pb2.Achievement, _Mapping]]] = ..., streak: _Optional[_Union[_application_service_pb2.UserStreak, _Mapping]] = ..., points: _Optional[_Iterable[_Union[_points_service_pb2.UserPoints, _Mapping]]] = ..., preferences: _Optional[_Union[_application_service_pb2.UserPreferences, _Mapping]] = ..., leaderboards: _Optional[_Iterable[_Union[_leaderboard_service_pb2.UserLeaderboard, _Mapping]]] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., idempotency_records: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ..., webhook_deliveries: _Optional[_Iterable[_Union[ExportedWebhookDelivery, _Mapping]]] = ..., boosts: _Optional[_Iterable[_Union[ExportedPointsBoost, _Mapping]]] = ...) -> None: ...

class ExportedPointsBoost(_message.Message):
    __slots__ = ("points_system_id", "points_system_key", "boost")
    POINTS_SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_SYSTEM_KEY_FIELD_NUMBER: _ClassVar[int]
    BOOST_FIELD_NUMBER: _ClassVar[int]
    points_system_id: str
    points_system_key: str
    boost: _points_admin_service_pb2.AdminPointsBoost
    def __init__(self, points_system_id: _Optional[str] = ..., points_system_key: _Optional[str] = ..., boost: _Optional[_Union[_points_admin_service_pb2.AdminPointsBoost, _Mapping]] = ...) -> None: ...
