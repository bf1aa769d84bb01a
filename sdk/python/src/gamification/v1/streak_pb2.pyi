import datetime

from gamification.v1 import options_pb2 as _options_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StreakFrequency(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STREAK_FREQUENCY_UNSPECIFIED: _ClassVar[StreakFrequency]
    STREAK_FREQUENCY_DAILY: _ClassVar[StreakFrequency]
    STREAK_FREQUENCY_WEEKLY: _ClassVar[StreakFrequency]
    STREAK_FREQUENCY_MONTHLY: _ClassVar[StreakFrequency]
STREAK_FREQUENCY_UNSPECIFIED: StreakFrequency
STREAK_FREQUENCY_DAILY: StreakFrequency
STREAK_FREQUENCY_WEEKLY: StreakFrequency
STREAK_FREQUENCY_MONTHLY: StreakFrequency

class StreakPeriod(_message.Message):
    __slots__ = ("period_start", "period_end", "length", "used_freeze", "used_pause", "reset_at")
    PERIOD_START_FIELD_NUMBER: _ClassVar[int]
    PERIOD_END_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    USED_FREEZE_FIELD_NUMBER: _ClassVar[int]
    USED_PAUSE_FIELD_NUMBER: _ClassVar[int]
    RESET_AT_FIELD_NUMBER: _ClassVar[int]
    period_start: str
    period_end: str
    length: int
    used_freeze: bool
    used_pause: bool
    reset_at: _timestamp_pb2.Timestamp
    def __init__(self, period_start: _Optional[str] = ..., period_end: _Optional[str] = ..., length: _Optional[int] = ..., used_freeze: bool = ..., used_pause: bool = ..., reset_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Streak(_message.Message):
    __slots__ = ("length", "frequency", "started", "period_start", "period_end", "expires", "freezes", "max_freezes", "freeze_auto_earn_interval", "freeze_auto_earn_amount", "extended", "streak_history")
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    PERIOD_START_FIELD_NUMBER: _ClassVar[int]
    PERIOD_END_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_FIELD_NUMBER: _ClassVar[int]
    FREEZES_FIELD_NUMBER: _ClassVar[int]
    MAX_FREEZES_FIELD_NUMBER: _ClassVar[int]
    FREEZE_AUTO_EARN_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    FREEZE_AUTO_EARN_AMOUNT_FIELD_NUMBER: _ClassVar[int]
    EXTENDED_FIELD_NUMBER: _ClassVar[int]
    STREAK_HISTORY_FIELD_NUMBER: _ClassVar[int]
    length: int
    frequency: StreakFrequency
    started: str
    period_start: str
    period_end: str
    expires: str
    freezes: int
    max_freezes: int
    freeze_auto_earn_interval: int
    freeze_auto_earn_amount: int
    extended: bool
    streak_history: _containers.RepeatedCompositeFieldContainer[StreakPeriod]
    def __init__(self, length: _Optional[int] = ..., frequency: _Optional[_Union[StreakFrequency, str]] = ..., started: _Optional[str] = ..., period_start: _Optional[str] = ..., period_end: _Optional[str] = ..., expires: _Optional[str] = ..., freezes: _Optional[int] = ..., max_freezes: _Optional[int] = ..., freeze_auto_earn_interval: _Optional[int] = ..., freeze_auto_earn_amount: _Optional[int] = ..., extended: bool = ..., streak_history: _Optional[_Iterable[_Union[StreakPeriod, _Mapping]]] = ...) -> None: ...
