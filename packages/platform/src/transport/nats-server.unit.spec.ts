import { describe, expect, it } from 'vitest';
import { SubjectServerNats } from './nats-server';
import { SharedNatsConnection } from './shared-nats-connection';

describe('SubjectServerNats', () => {
  const server = new SubjectServerNats({ servers: ['nats://127.0.0.1:1'] }, new SharedNatsConnection('nats://127.0.0.1:1'));

  it('routes a plain subject as itself, without trying it as JSON', () => {
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parsed++;
      return parse(...args);
    };
    try {
      expect(server.getRouteFromPattern('conversation.cmd.post-message.v2')).toBe('conversation.cmd.post-message.v2');
    } finally {
      JSON.parse = parse;
    }
    expect(parsed).toBe(0);
  });

  it('still routes an object pattern as Nest does (keys in order)', () => {
    expect(server.getRouteFromPattern('{"v":1,"cmd":"sum"}')).toBe('{"cmd":"sum","v":1}');
  });
});
