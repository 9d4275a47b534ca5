-- The happy path of a message's timeline (accepted, dispatched, carrier accepted, delivered) is now
-- read from the message's own timestamps and parts (lib/messages/message-timeline.ts); the rows that
-- stored it would show twice. Retries, failures and refunds stay stored.
DELETE FROM "MessageEvent" WHERE "kind" IN ('accepted', 'dispatched', 'success', 'delivered');
