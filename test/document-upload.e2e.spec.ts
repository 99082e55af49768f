import { describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../services/search/src/testing/office-files';
import { http, useE2eApp, useProject } from './support/e2e-app';

describe('POST /admin/v1/projects/{projectId}/documents/upload: PDF and DOCX files', () => {
  const e2e = useE2eApp();
  const keys = useProject(e2e);

  const upload = async (file: { bytes: Buffer; name: string; type: string } | null, fields: Record<string, string> = {}) => {
    const form = new FormData();
    if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const response = await fetch(`${e2e.url}/admin/v1/projects/${keys.project.id}/documents/upload`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token' },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const search = async (q: string) =>
    (await http(`${e2e.url}/v2/search?apiKey=${keys.publishableKey}&q=${encodeURIComponent(q)}`)).body.results as Array<{
      url: string;
      content: string;
    }>;

  it('a PDF becomes a searchable document, cited by the URL given', async () => {
    const pdf = makePdf(['The espresso machine descales every 90 days.'], 'Espresso care');
    const created = await upload(
      { bytes: pdf, name: 'espresso-care.pdf', type: 'application/pdf' },
      { url: 'https://shop.example/espresso-care.pdf' },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Espresso care', url: 'https://shop.example/espresso-care.pdf' });
    const hit = (await search('how often does the espresso machine descale')).find(
      (r) => r.url === 'https://shop.example/espresso-care.pdf',
    );
    expect(hit?.content).toContain('every 90 days');
  });

  it('a DOCX file becomes a document with its headings, titled by the form or its first heading', async () => {
    const docx = await makeDocx(['# Loyalty programme', 'Members earn one point for every euro spent.']);
    const created = await upload({
      bytes: docx,
      name: 'loyalty.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Loyalty programme', url: 'file:///loyalty.docx', path: '/loyalty.docx' });
    expect(created.body.content).toMatch(/^# Loyalty programme$/m);
    expect((await search('how many loyalty points per euro')).some((r) => r.content.includes('one point for every euro'))).toBe(true);
  });

  it('refuses another kind of file (415), a corrupt one (422), none (400), and a request that is not multipart (415)', async () => {
    const text = await upload({ bytes: Buffer.from('plain text'), name: 'notes.txt', type: 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'only PDF and DOCX files can be uploaded' });
    const corrupt = await upload({ bytes: Buffer.from('%PDF-1.4\nthis is no pdf'), name: 'broken.pdf', type: 'application/pdf' });
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.error.code).toBe('VALIDATION_ERROR');
    expect(corrupt.body.error.message).toMatch(/cannot be read/);
    const brokenDocx = await upload({ bytes: Buffer.from('PK\x03\x04 nope'), name: 'broken.docx', type: 'application/octet-stream' });
    expect(brokenDocx.status).toBe(422);
    const none = await upload(null, { title: 'No file' });
    expect(none.status).toBe(400);
    const json = await http(`${e2e.url}/admin/v1/projects/${keys.project.id}/documents/upload`, {
      body: { file: 'x' },
      token: 'test-admin-token',
    });
    expect(json.status).toBe(415);
    expect((await e2e.admin.call('GET', `/projects/${keys.project.id}/documents`)).total).toBe(2);
  });

  it('refuses a file over 8 MB with 413', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024 + 10, 0x20)]);
    const refused = await upload({ bytes: big, name: 'big.pdf', type: 'application/pdf' });
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
