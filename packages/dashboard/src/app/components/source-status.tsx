import type { Source } from '../lib/types';

const TONE: Record<Source['status'], string> = { queued: 'badge-muted', crawling: '', ready: 'badge-like', failed: 'badge-danger' };
const LABEL: Record<Source['status'], string> = { queued: 'Queued', crawling: 'Crawling', ready: 'Ready', failed: 'Failed' };

export const SourceStatusBadge = ({ status }: { status: Source['status'] }) => <span class={`badge ${TONE[status]}`}>{LABEL[status]}</span>;
