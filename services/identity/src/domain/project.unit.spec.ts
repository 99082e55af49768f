import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ASSISTANT_INSTRUCTIONS, defaultAssistant, newAssistant } from './assistant';
import { newProject, projectPatchUpdate } from './project';

const ids = (...values: string[]) => {
  const queue = [...values];
  return () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('out of ids');
    return next;
  };
};

const NOW = '2026-01-01T00:00:00.000Z';
const P = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const Q1 = '33333333-3333-4333-8333-333333333333';

describe('newProject', () => {
  it('fills in the defaults', () => {
    expect(newProject({ name: 'Docs' }, { projectId: P, defaultAssistantId: A, newId: ids() }, NOW)).toEqual({
      id: P,
      name: 'Docs',
      description: '',
      plan: 'enterprise',
      limits: { messagesPerMinute: null, monthlyMessages: null },
      chatWidgetConfig: DEFAULT_CHAT_WIDGET_CONFIG,
      quickPrompts: [],
      handoff: { enabled: false, triggerPhrases: [], offlineMessage: null },
      qnaOverride: { enabled: true, minScore: 0.9 },
      identityVerification: { required: false, secretCreatedAt: null },
      retentionDays: null,
      availability: null,
      defaultAssistantId: A,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps what is given and ids the quick prompts', () => {
    const project = newProject(
      {
        name: 'Docs',
        description: 'd',
        plan: 'free',
        limits: { monthlyMessages: 1000 },
        chatWidgetConfig: { brandColor: '#000000' },
        quickPrompts: [{ title: 'Pricing', prompt: 'How much?' }],
      },
      { projectId: P, defaultAssistantId: A, newId: ids(Q1) },
      NOW,
    );
    expect(project.plan).toBe('free');
    expect(project.description).toBe('d');
    expect(project.limits).toEqual({ messagesPerMinute: null, monthlyMessages: 1000 });
    expect(project.chatWidgetConfig).toEqual({ ...DEFAULT_CHAT_WIDGET_CONFIG, brandColor: '#000000' });
    expect(project.quickPrompts).toEqual([{ id: Q1, title: 'Pricing', prompt: 'How much?' }]);
  });
});

describe('projectPatchUpdate', () => {
  it('only stamps updatedAt for an empty patch', () => {
    expect(projectPatchUpdate({}, ids(), NOW)).toEqual({ $set: { updatedAt: NOW } });
  });

  it('sets scalars, merges config and limits by path, replaces quick prompts', () => {
    expect(
      projectPatchUpdate(
        {
          name: 'New',
          plan: 'pro',
          limits: { messagesPerMinute: null },
          chatWidgetConfig: { position: 'top-left', offset: { x: 5, y: 6 } },
          quickPrompts: [{ title: 't', prompt: 'p' }],
          identityVerification: { required: true },
          qnaOverride: { enabled: false, minScore: 0.95 },
        },
        ids(Q1),
        NOW,
      ),
    ).toEqual({
      $set: {
        updatedAt: NOW,
        name: 'New',
        plan: 'pro',
        'limits.messagesPerMinute': null,
        'chatWidgetConfig.position': 'top-left',
        'chatWidgetConfig.offset.x': 5,
        'chatWidgetConfig.offset.y': 6,
        quickPrompts: [{ id: Q1, title: 't', prompt: 'p' }],
        // By path: the secret's creation time, beside it, is not the patch's to overwrite.
        'identityVerification.required': true,
        qnaOverride: { enabled: false, minScore: 0.95 },
      },
    });
  });

  it('unsets the optional widget fields given as null', () => {
    expect(projectPatchUpdate({ chatWidgetConfig: { chatButtonColor: null, brandColor: '#111111' } }, ids(), NOW)).toEqual({
      $set: { updatedAt: NOW, 'chatWidgetConfig.brandColor': '#111111' },
      $unset: { 'chatWidgetConfig.chatButtonColor': '' },
    });
  });
});

describe('assistants', () => {
  it('the default one is named Assistant with neutral instructions and the default model', () => {
    expect(defaultAssistant(P, A, NOW)).toEqual({
      id: A,
      projectId: P,
      name: 'Assistant',
      instructions: DEFAULT_ASSISTANT_INSTRUCTIONS,
      model: null,
      createdAt: NOW,
    });
  });

  it('keeps given instructions and model', () => {
    const assistant = newAssistant(P, A, { name: 'Sales', instructions: 'Sell.', model: 'gpt-x' }, NOW);
    expect(assistant).toMatchObject({ name: 'Sales', instructions: 'Sell.', model: 'gpt-x' });
  });
});
