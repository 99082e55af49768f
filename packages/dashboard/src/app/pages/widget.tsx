import { useState } from 'preact/hooks';
import { SelectField, TextAreaField, TextField } from '../components/fields';
import { SaveFooter } from '../components/save-footer';
import { Card, CopyButton, Field, Form, Notice, PageHeader, useSubmit } from '../components/ui';
import { WidgetPreview } from '../components/widget-preview';
import { api } from '../lib/api';
import { contrastWarning, GRAPHIC_CONTRAST, TEXT_CONTRAST } from '../lib/contrast';
import { useProject } from '../lib/project-context';
import type { ChatWidgetConfig, KeyRecord, ProjectRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';
import { useUnsavedGuard } from '../lib/use-unsaved-guard';

type TextConfigField = 'welcomeMessage' | 'inputPlaceholder' | 'displayName';
type ColourField = 'brandColor' | 'brandColorDark' | 'userMessageBubbleColor' | 'userMessageBubbleColorDark';
type NumberField = 'width' | 'maxHeight' | 'bubbleRadius' | 'baseFontSize' | 'openDelay';
type OptionalField = 'assistantAvatar' | 'chatButtonIcon' | 'chatButtonColor';

const TEXT_FIELDS: [TextConfigField, string][] = [
  ['displayName', 'Display name'],
  ['welcomeMessage', 'Welcome message'],
  ['inputPlaceholder', 'Input placeholder'],
];
const COLOUR_FIELDS: [ColourField, string][] = [
  ['brandColor', 'Brand colour'],
  ['brandColorDark', 'Brand colour (dark mode)'],
  ['userMessageBubbleColor', 'Visitor bubble colour'],
  ['userMessageBubbleColorDark', 'Visitor bubble colour (dark mode)'],
];
// The widget draws white on each of these colours (its styles.ts): text on the brand colour
// (header) and the visitor's bubbles, an icon on the chat button.
const WHITE_TEXT = { colour: '#ffffff', name: 'White', what: 'text' };
const WHITE_ICON = { colour: '#ffffff', name: 'The white', what: 'icon' };
const colourWarning = (field: ColourField | 'chatButtonColor', value: string): string | null =>
  field === 'chatButtonColor' ? contrastWarning(value, WHITE_ICON, GRAPHIC_CONTRAST) : contrastWarning(value, WHITE_TEXT, TEXT_CONTRAST);
const NUMBER_FIELDS: [NumberField, string, string][] = [
  ['width', 'Width', 'px'],
  ['maxHeight', 'Maximum height', 'px'],
  ['bubbleRadius', 'Bubble radius', 'px'],
  ['baseFontSize', 'Base font size', 'px'],
  ['openDelay', 'Open delay', 'ms; 0 keeps it closed until clicked'],
];
const OFFSET_FIELDS: ['x' | 'y', string, string][] = [
  ['x', 'offsetX', 'px from the side'],
  ['y', 'offsetY', 'px from the top or bottom'],
];
const IMAGE_FIELDS: [OptionalField, string][] = [
  ['assistantAvatar', 'Assistant avatar URL (optional)'],
  ['chatButtonIcon', 'Chat button icon URL (optional)'],
];
const POSITIONS: ChatWidgetConfig['position'][] = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];

/** A colour picker with its text value beside it (either can be edited), and a warning when white on it is hard to read. */
const ColourInput = ({
  label,
  name,
  value,
  fallback = '#000000',
  warning,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  fallback?: string;
  warning: string | null;
  onChange: (v: string) => void;
}) => {
  const warningId = `contrast-warning-${name}`;
  return (
    <div class="field">
      <Field label={label}>
        <span class="colour-input">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={/^#[0-9a-f]{6}$/i.test(value) ? value : fallback}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
          <input
            name={name}
            value={value}
            aria-describedby={warning ? warningId : undefined}
            aria-invalid={warning ? true : undefined}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        </span>
      </Field>
      {warning ? (
        <p class="field-warning" id={warningId} data-testid={`contrast-${name}`}>
          {warning}
        </p>
      ) : null}
    </div>
  );
};

export const embedSnippet = (origin: string, key: string): string => `<script src="${origin}/widget.js" data-key="${key}" async></script>`;

export const WidgetPage = () => {
  const { project, setProject } = useProject();
  const [config, setConfig] = useState<ChatWidgetConfig>(project.chatWidgetConfig);
  const [saved, setSaved] = useState(false);
  // Edited since the page opened or was last saved.
  const [dirty, setDirty] = useState(false);
  useUnsavedGuard(dirty, 'The widget has unsaved changes. Leave this page and lose them?');
  const keys = useAsync((signal) => api<{ data: KeyRecord[] }>(`/projects/${project.id}/keys`, { signal }), [project.id]);
  const publishable = (keys.data?.data ?? []).filter((k) => k.type === 'publishable' && !k.revokedAt);
  const [keyId, setKeyId] = useState('');
  const chosen = publishable.find((k) => k.id === keyId) ?? publishable[0];

  const set = <K extends keyof ChatWidgetConfig>(field: K, value: ChatWidgetConfig[K]) => {
    setSaved(false);
    setDirty(true);
    setConfig((c) => ({ ...c, [field]: value }));
  };
  const save = useSubmit(async () => {
    // An emptied optional field is cleared (null), so the widget goes back to its default.
    const optional = Object.fromEntries(
      (['assistantAvatar', 'chatButtonIcon', 'chatButtonColor'] as OptionalField[]).map((f) => [f, config[f]?.trim() || null]),
    );
    const { assistantAvatar: _a, chatButtonIcon: _i, chatButtonColor: _c, ...required } = config;
    const updated = await api<ProjectRecord>(`/projects/${project.id}`, {
      method: 'PATCH',
      body: { chatWidgetConfig: { ...required, ...optional } },
    });
    setProject(updated);
    setConfig(updated.chatWidgetConfig);
    setSaved(true);
    setDirty(false);
  });
  // Only a key known whole makes a snippet that works; a masked one would be copied broken.
  const snippet = chosen?.key ? embedSnippet(location.origin, chosen.key) : '';

  return (
    <>
      <PageHeader
        title="Widget"
        description="How the chat widget looks on your site. The preview follows every change; save to publish it."
      />
      <div class="widget-layout">
        <Form class="widget-form" onSubmit={save.run}>
          <Card title="Text">
            <div class="form-grid">
              {TEXT_FIELDS.map(([field, label]) => (
                <TextField key={field} label={label} name={field} value={config[field]} onValue={(v) => set(field, v)} />
              ))}
            </div>
          </Card>
          <Card title="Colours">
            <div class="form-grid form-grid-2">
              {COLOUR_FIELDS.map(([field, label]) => (
                <ColourInput
                  key={field}
                  name={field}
                  label={label}
                  value={config[field]}
                  warning={colourWarning(field, config[field])}
                  onChange={(v) => set(field, v)}
                />
              ))}
              <ColourInput
                name="chatButtonColor"
                label="Chat button colour (optional)"
                value={config.chatButtonColor ?? ''}
                fallback={config.brandColor}
                warning={config.chatButtonColor ? colourWarning('chatButtonColor', config.chatButtonColor) : null}
                onChange={(v) => set('chatButtonColor', v)}
              />
            </div>
          </Card>
          <Card title="Layout">
            <div class="form-grid form-grid-2">
              <SelectField
                label="Position"
                name="position"
                options={POSITIONS.map((p) => [p, p] as const)}
                value={config.position}
                onValue={(p) => set('position', p)}
              />
              {NUMBER_FIELDS.map(([field, label, unit]) => (
                <TextField
                  key={field}
                  label={label}
                  hint={unit}
                  name={field}
                  type="number"
                  min={0}
                  value={config[field]}
                  onValue={(v) => set(field, Number(v))}
                />
              ))}
              {OFFSET_FIELDS.map(([axis, name, hint]) => (
                <TextField
                  key={axis}
                  label={`Offset ${axis}`}
                  hint={hint}
                  name={name}
                  type="number"
                  value={config.offset[axis]}
                  onValue={(v) => set('offset', { ...config.offset, [axis]: Number(v) })}
                />
              ))}
            </div>
          </Card>
          <Card title="Images and custom CSS">
            <div class="form-grid">
              {IMAGE_FIELDS.map(([field, label]) => (
                <TextField key={field} label={label} name={field} type="url" value={config[field] ?? ''} onValue={(v) => set(field, v)} />
              ))}
              <TextAreaField
                label="Custom CSS"
                hint="Applied inside the widget's shadow root only"
                name="customCSSStyles"
                rows={4}
                class="mono"
                value={config.customCSSStyles}
                onValue={(v) => set('customCSSStyles', v)}
              />
            </div>
          </Card>
          <SaveFooter submit={save} saved={saved} savedText="Saved: the widget shows it on its next load." label="Save widget" />
        </Form>
        <div class="widget-side">
          <Card title="Preview">
            <WidgetPreview config={config} quickPrompts={project.quickPrompts} />
          </Card>
          <Card title="Embed">
            {publishable.length === 0 ? (
              <p class="muted">
                Create a publishable key on the <a href={`/dashboard/projects/${project.id}/keys`}>Keys</a> page to get the snippet.
              </p>
            ) : (
              <>
                <SelectField
                  label="Key"
                  name="embedKey"
                  options={publishable.map((k) => [k.id, `${k.name} (…${k.hint})`] as const)}
                  value={chosen?.id ?? ''}
                  onValue={setKeyId}
                />
                {snippet ? (
                  <>
                    <p class="muted small">Paste it before &lt;/body&gt; on every page that shows the widget.</p>
                    <pre class="snippet">
                      <code>{snippet}</code>
                    </pre>
                    <CopyButton text={snippet} label="Copy snippet" />
                  </>
                ) : (
                  <Notice tone="warning">
                    “{chosen?.name}” (pk_…{chosen?.hint}) was created before publishable keys were kept whole, so the dashboard cannot show
                    it: create a new key to get a copyable snippet.
                  </Notice>
                )}
              </>
            )}
          </Card>
        </div>
      </div>
    </>
  );
};
