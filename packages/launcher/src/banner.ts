import type { DemoCredentials } from './demo.seed';

export interface BannerInput {
  title: string;
  url: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  demo: DemoCredentials | null;
  /** Extra lines after the URLs (e.g. the cluster's processes). */
  extra?: string[];
}

/** What `pnpm start` and `pnpm start:cluster` print: where to reach the API and the demo keys. */
export const banner = ({ title, url, adminToken, adminTokenGenerated, demo, extra = [] }: BannerInput): string => {
  const lines = [
    '',
    title,
    `  API base URL     ${url}/v2`,
    `  Health           ${url}/healthz`,
    `  Admin API        ${url}/admin/v1   (Authorization: Bearer <admin token>)`,
    `  Dashboard        ${url}/dashboard/   (sign in with the admin token)`,
    `  Admin token      ${adminToken}${adminTokenGenerated ? '   (generated, saved in DATA_DIR/admin-token)' : ''}`,
  ];
  if (demo) {
    lines.push(
      `  Demo project     ${demo.projectId}`,
      `  Publishable key  ${demo.publishableKey}`,
      `  Private key      ${demo.privateKey}`,
      `  Widget demo      ${url}/demo`,
    );
  }
  lines.push(...extra);
  if (demo) {
    lines.push(
      '',
      'Try it:',
      `  curl -s -X POST ${url}/v2/identity/init -H 'content-type: application/json' \\`,
      `    -d '{"apiKey":"${demo.publishableKey}","saVid":"device-1"}'`,
    );
  }
  return `${lines.join('\n')}\n`;
};
