# Every instant the admin shows reads the same, with seconds and the zone (UTC), whatever the
# reader's locale: "2026-11-29 18:06:03 UTC".
DATETIME_FORMAT = "Y-m-d H:i:s T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i:s T"
DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
