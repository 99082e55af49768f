import { AppError } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './reply-failure';

describe('describeFailure', () => {
  it('says the language model failed, without the upstream details', () => {
    const err = new AppError('BAD_GATEWAY', 'the chat model answered 401: Incorrect API key provided: sk-abc', {
      service: 'llm',
      status: 401,
    });
    expect(describeFailure(err)).toEqual({ code: 'BAD_GATEWAY', message: 'The language model failed to answer.' });
  });

  it('says when the language model timed out', () => {
    const err = new AppError('BAD_GATEWAY', 'the chat model sent nothing for 60000 ms', { service: 'llm', reason: 'timeout' });
    expect(describeFailure(err)).toEqual({ code: 'BAD_GATEWAY', message: 'The language model took too long to answer.' });
  });

  it('hides which internal service was unavailable', () => {
    const err = new AppError('SERVICE_UNAVAILABLE', 'internal service did not answer (identity.qry.get-assistant.v1)');
    expect(describeFailure(err)).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'A service needed for the reply is unavailable.' });
  });

  it('passes a domain error on as it is', () => {
    expect(describeFailure(new AppError('ASSISTANT_NOT_FOUND', 'assistant not found'))).toEqual({
      code: 'ASSISTANT_NOT_FOUND',
      message: 'assistant not found',
    });
  });

  it('reports anything else as an internal error', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'The reply failed because of an internal error.',
    });
  });
});
