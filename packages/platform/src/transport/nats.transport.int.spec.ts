import { describe } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { describeServiceTransportContract } from '../testing/service-transport.contract';
import { natsTransport } from './transport';

const available = await infraAvailable('nats');

describe.skipIf(!available)(infraSuiteTitle('natsTransport', 'nats', available), () => {
  describeServiceTransportContract('natsTransport', () => natsTransport(infraUrl('nats')));
});
