import { useState } from 'preact/hooks';
import { globLines } from '../lib/sources';
import type { Source } from '../lib/types';
import { SelectField, TextAreaField, TextField } from './fields';
import { Form, FormActions, useSubmit } from './ui';

export interface SourceSettings {
  maxPages: number;
  include: string[];
  exclude: string[];
  refreshIntervalHours: number | null;
}
export type NewSource = SourceSettings & { type: Source['type']; url: string };

const TYPES = [
  ['website', 'Website (follow links)'],
  ['sitemap', 'Sitemap (its URLs)'],
] as const;
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
          <SelectField label="Type" name="type" options={TYPES} value={type} onValue={setType} />
          <TextField
            label={type === 'sitemap' ? 'Sitemap URL' : 'Start URL'}
            name="url"
            type="url"
            required
            value={url}
            onValue={setUrl}
            placeholder={type === 'sitemap' ? 'https://shop.example/sitemap.xml' : 'https://shop.example/help/'}
          />
        </div>
      )}
      <div class="form-grid form-grid-2">
        <TextField
          label="Page limit"
          hint="At most 5000 pages a crawl"
          name="maxPages"
          type="number"
          min={1}
          max={5000}
          step={1}
          required
          value={maxPages}
          onValue={setMaxPages}
        />
        <SelectField label="Refresh" name="refreshIntervalHours" options={choices} value={refresh} onValue={setRefresh} />
      </div>
      <div class="form-grid form-grid-2">
        <TextAreaField
          label="Only these paths"
          hint="One glob a line, e.g. /docs/**; empty: the whole site"
          name="include"
          rows={3}
          value={include}
          onValue={setInclude}
        />
        <TextAreaField
          label="Never these paths"
          hint="One glob a line, e.g. /blog/**"
          name="exclude"
          rows={3}
          value={exclude}
          onValue={setExclude}
        />
      </div>
      <FormActions submit={submit} label={submitLabel} onCancel={onCancel} />
    </Form>
  );
};
