// A site's backend using the packed @palaver/node: the admin API adds a Q&A entry, surface B
// creates a customer, streams a reply in a new chat, lists the customer's chats and the Q&A
// entries, and the backend signs a user token for the widget. Prints what it saw as JSON.
import { randomUUID } from 'node:crypto';
import { PalaverAdmin, PalaverServer, signUserToken } from '@palaver/node';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const baseUrl = env('PALAVER_URL');
const admin = new PalaverAdmin({ baseUrl, adminToken: env('PALAVER_ADMIN_TOKEN') });
const server = new PalaverServer({ baseUrl, serviceKey: env('PALAVER_SERVICE_KEY') });

const project = await admin.projects.get(env('PALAVER_PROJECT_ID'));
await admin.qnas.create(project.id, { question: 'Do you ship abroad?', answer: 'Yes, to every EU country.' });

const customer = await server.upsertCustomer('sdk-user-1', { name: 'Ann', email: 'ann@example.com', attributes: { plan: 'gold' } });
const chatId = randomUUID();
const reply = await server.streamChat(customer.appUserId, chatId, { message: 'Where is my parcel?' });
const replyText = reply.type === 'stream' ? await reply.text() : reply.text;
const chats = await server.listChats(customer.appUserId, { filter: 'open' });
const chat = await server.getChat(customer.appUserId, chatId);
const qnas = await server.listQnas({ query: 'ship' });
const userToken = await signUserToken(env('PALAVER_IDENTITY_SECRET'), {
  sub: customer.appUserId,
  name: customer.name ?? undefined,
  expiresIn: '10m',
});

// The published types are real (not `any`): a customer has no `age`, a token no `ttl`.
// @ts-expect-error unknown field
customer.age;
// @ts-expect-error unknown claim
void signUserToken('secret', { sub: 'u', ttl: 60 });

console.log(
  JSON.stringify({
    projectName: project.name,
    customer,
    chatId,
    replyText,
    chatIds: chats.data.map((summary) => summary.id),
    messageRoles: chat.messages.map((message) => message.role),
    qnaTitles: qnas.data.map((qna) => qna.title),
    userToken,
  }),
);
