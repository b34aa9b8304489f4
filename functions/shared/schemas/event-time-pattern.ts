/**
 * @module schemas/event-time-pattern
 * The pattern the OpenAPI document gives event times (`eventTime` on ingestion, `asOf` on the
 * lineage graph): a strict subset of what the service reads, so a time the document calls valid is
 * never refused. Its own module, so schemas that need it do not load the OpenLineage validator.
 */

/**
 * `eventTime` as the document states it: RFC 3339 with `T`, `t` or a space, up to nanoseconds,
 * a zone or none, years 1971 to 9998 (inside the storable range whatever the zone) and only
 * days every year has (the validator also takes 29 February of leap years and leap seconds).
 */
export const EVENT_TIME_PATTERN =
  '^(197[1-9]|19[89]\\d|[2-8]\\d{3}|9[0-8]\\d{2}|99[0-8]\\d)-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)?$';
