import { headers, type MsgHdrs } from 'nats';

/**
 * A responder still handling a request says so on the request's reply subject every this often
 * (an empty message with WORKING_HEADER), so a requester can tell a slow answer from a lost one.
 */
export const WORKING_HEARTBEAT_MS = 1_000;

/**
 * A requester that heard nothing for this long from the instance that took its request takes it as
 * lost (the instance died, or is stopped): a few heartbeats, so that a responder whose event loop
 * is held up for a moment is not given up on.
 */
export const RESPONDER_SILENCE_MS = 4 * WORKING_HEARTBEAT_MS;

export const WORKING_HEADER = 'Palaver-Working';

let working: MsgHdrs | null = null;
/** The heartbeat's headers, made once (they are only read when the message is encoded). */
export const workingHeaders = (): MsgHdrs => {
  if (!working) {
    working = headers();
    working.set(WORKING_HEADER, '1');
  }
  return working;
};
