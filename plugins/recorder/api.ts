// What other code may read of the recorder: the shape of its records (the control panel shows them).
export type { FlightRecord, RecordedAttempt, RecordedBody, RecordedMessage, RecordedRouting, RecordedStream, RecordSummary, StreamEvent } from './types.ts'
