import { Empty, PageHeader } from '../components/ui';

/** The agents' inbox arrives with the agents' API (/agent/v1). */
export const InboxPage = () => (
  <>
    <PageHeader title="Inbox" description="Conversations waiting for a person." />
    <Empty title="The agents' API is not available on this server yet" />
  </>
);
