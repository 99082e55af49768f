import { globLines } from '../lib/sources';
import type { Source } from '../lib/types';
import { SelectField, TextAreaField, TextField, useFields } from './fields';
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
  const { values, field } = useFields({
    type: (initial?.type ?? 'website') as Source['type'],
    url: '',
    maxPages: String(initial?.maxPages ?? 200),
    include: initial?.include.join('\n') ?? '',
    exclude: initial?.exclude.join('\n') ?? '',
    refreshIntervalHours: initial?.refreshIntervalHours?.toString() ?? '',
  });
  const { type, refreshIntervalHours: refresh } = values;
  const submit = useSubmit(() => {
    const settings: SourceSettings = {
      maxPages: Number(values.maxPages),
      include: globLines(values.include),
      exclude: globLines(values.exclude),
      refreshIntervalHours: refresh === '' ? null : Number(refresh),
    };
    return onSubmit(initial ? settings : { type, url: values.url.trim(), ...settings });
  });
  // A stored interval that is none of the choices stays choosable.
  const choices = REFRESH.some(([value]) => value === refresh) ? REFRESH : [...REFRESH, [refresh, `Every ${refresh} h`] as const];
  return (
    <Form class="form-grid" onSubmit={submit.run}>
      {initial ? null : (
        <div class="form-grid form-grid-2">
          <SelectField label="Type" options={TYPES} {...field('type')} />
          <TextField
            label={type === 'sitemap' ? 'Sitemap URL' : 'Start URL'}
            type="url"
            required
            {...field('url')}
            placeholder={type === 'sitemap' ? 'https://shop.example/sitemap.xml' : 'https://shop.example/help/'}
          />
        </div>
      )}
      <div class="form-grid form-grid-2">
        <TextField
          label="Page limit"
          hint="At most 5000 pages a crawl"
          type="number"
          min={1}
          max={5000}
          step={1}
          required
          {...field('maxPages')}
        />
        <SelectField label="Refresh" options={choices} {...field('refreshIntervalHours')} />
      </div>
      <div class="form-grid form-grid-2">
        <TextAreaField
          label="Only these paths"
          hint="One glob a line, e.g. /docs/**; empty: the whole site"
          rows={3}
          {...field('include')}
        />
        <TextAreaField label="Never these paths" hint="One glob a line, e.g. /blog/**" rows={3} {...field('exclude')} />
      </div>
      <FormActions submit={submit} label={submitLabel} onCancel={onCancel} />
    </Form>
  );
};
