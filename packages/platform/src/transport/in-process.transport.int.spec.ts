import { describeServiceTransportContract } from '../testing/service-transport.contract';
import { inProcessTransport } from './transport';

describeServiceTransportContract('inProcessTransport', () => inProcessTransport());
