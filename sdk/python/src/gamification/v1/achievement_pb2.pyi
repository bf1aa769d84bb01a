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

class AchievementTrigger(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACHIEVEMENT_TRIGGER_UNSPECIFIED: _ClassVar[AchievementTrigger]
    ACHIEVEMENT_TRIGGER_METRIC: _ClassVar[AchievementTrigger]
    ACHIEVEMENT_TRIGGER_STREAK: _ClassVar[AchievementTrigger]
    ACHIEVEMENT_TRIGGER_API: _ClassVar[AchievementTrigger]
    ACHIEVEMENT_TRIGGER_ACHIEVEMENT: _ClassVar[AchievementTrigger]
ACHIEVEMENT_TRIGGER_UNSPECIFIED: AchievementTrigger
ACHIEVEMENT_TRIGGER_METRIC: AchievementTrigger
ACHIEVEMENT_TRIGGER_STREAK: AchievementTrigger
ACHIEVEMENT_TRIGGER_API: AchievementTrigger
ACHIEVEMENT_TRIGGER_ACHIEVEMENT: AchievementTrigger

class Achievement(_message.Message):
    __slots__ = ("id", "name", "trigger", "description", "badge_url", "key", "streak_length", "achievement_ids", "metric_id", "metric_value", "metric_name", "user_attributes", "event_attributes", "achieved_at", "completions", "rarity")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TRIGGER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BADGE_URL_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    STREAK_LENGTH_FIELD_NUMBER: _ClassVar[int]
    ACHIEVEMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    METRIC_ID_FIELD_NUMBER: _ClassVar[int]
    METRIC_VALUE_FIELD_NUMBER: _ClassVar[int]
    METRIC_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    EVENT_ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    ACHIEVED_AT_FIELD_NUMBER: _ClassVar[int]
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    RARITY_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    trigger: AchievementTrigger
    description: str
    badge_url: str
    key: str
    streak_length: int
    achievement_ids: _containers.RepeatedScalarFieldContainer[str]
    metric_id: str
    metric_value: float
    metric_name: str
    user_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    event_attributes: _containers.RepeatedCompositeFieldContainer[_common_pb2.AttributeFilter]
    achieved_at: _timestamp_pb2.Timestamp
    completions: int
    rarity: float
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., trigger: _Optional[_Union[AchievementTrigger, str]] = ..., description: _Optional[str] = ..., badge_url: _Optional[str] = ..., key: _Optional[str] = ..., streak_length: _Optional[int] = ..., achievement_ids: _Optional[_Iterable[str]] = ..., metric_id: _Optional[str] = ..., metric_value: _Optional[float] = ..., metric_name: _Optional[str] = ..., user_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., event_attributes: _Optional[_Iterable[_Union[_common_pb2.AttributeFilter, _Mapping]]] = ..., achieved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., completions: _Optional[int] = ..., rarity: _Optional[float] = ...) -> None: ...
