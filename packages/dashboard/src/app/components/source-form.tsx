import { useState } from 'preact/hooks';
import { globLines } from '../lib/sources';
import type { Source } from '../lib/types';
import { Field, Form, FormActions, useSubmit } from './ui';

export interface SourceSettings {
  maxPages: number;
  include: string[];
  exclude: string[];
  refreshIntervalHours: number | null;
}
export type NewSource = SourceSettings & { type: Source['type']; url: string };

const REFRESH = [
  ['', 'Manually (Sync now)'],
  ['24', 'Every day'],
  ['168', 'Every week'],
  ['720', 'Every 30 days'],
] as const;

/**
 * A new source (type and URL too) or an existing one's settings (`initial` given: its URL and
 * type are fixed, a new address is a new source).
 */
export const SourceForm = ({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Source;
  submitLabel: string;
  onSubmit: (body: NewSource | SourceSettings) => Promise<void>;
  onCancel: () => void;
}) => {
  const [type, setType] = useState<Source['type']>(initial?.type ?? 'website');
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState(String(initial?.maxPages ?? 200));
  const [include, setInclude] = useState(initial?.include.join('\n') ?? '');
  const [exclude, setExclude] = useState(initial?.exclude.join('\n') ?? '');
  const [refresh, setRefresh] = useState(initial?.refreshIntervalHours?.toString() ?? '');
  const submit = useSubmit(() => {
    const settings: SourceSettings = {
      maxPages: Number(maxPages),
      include: globLines(include),
      exclude: globLines(exclude),
      refreshIntervalHours: refresh === '' ? null : Number(refresh),
    };
    return onSubmit(initial ? settings : { type, url: url.trim(), ...settings });
  });
  // A stored interval that is none of the choices stays choosable.
  const choices = REFRESH.some(([value]) => value === refresh) ? REFRESH : [...REFRESH, [refresh, `Every ${refresh} h`] as const];
  return (
    <Form class="form-grid" onSubmit={submit.run}>
      {initial ? null : (
        <div class="form-grid form-grid-2">
          <Field label="Type">
            <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value as Source['type'])}>
              <option value="website">Website (follow links)</option>
              <option value="sitemap">Sitemap (its URLs)</option>
            </select>
          </Field>
          <Field label={type === 'sitemap' ? 'Sitemap URL' : 'Start URL'}>
            <input
              name="url"
              type="url"
              required
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
              placeholder={type === 'sitemap' ? 'https://shop.example/sitemap.xml' : 'https://shop.example/help/'}
            />
          </Field>
        </div>
      )}
      <div class="form-grid form-grid-2">
        <Field label="Page limit" hint="At most 5000 pages a crawl">
          <input
            name="maxPages"
            type="number"
            min={1}
            max={5000}
            step={1}
            required
            value={maxPages}
            onInput={(e) => setMaxPages(e.currentTarget.value)}
          />
        </Field>
        <Field label="Refresh">
          <select name="refreshIntervalHours" value={refresh} onChange={(e) => setRefresh(e.currentTarget.value)}>
            {choices.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="form-grid form-grid-2">
        <Field label="Only these paths" hint="One glob a line, e.g. /docs/**; empty: the whole site">
          <textarea name="include" rows={3} value={include} onInput={(e) => setInclude(e.currentTarget.value)} />
        </Field>
        <Field label="Never these paths" hint="One glob a line, e.g. /blog/**">
          <textarea name="exclude" rows={3} value={exclude} onInput={(e) => setExclude(e.currentTarget.value)} />
        </Field>
      </div>
      <FormActions submit={submit} label={submitLabel} onCancel={onCancel} />
    </Form>
  );
};
