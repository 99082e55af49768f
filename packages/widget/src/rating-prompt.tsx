/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { useBusySubmit } from './busy-submit';
import type { VisitorRating } from './chat-session';

const SCORES = [1, 2, 3, 4, 5];
const WORDS = ['', 'Very poor', 'Poor', 'Okay', 'Good', 'Excellent'];

/**
 * "How did we do?" once the conversation ended or a person handed it back: 1-5 stars and an
 * optional comment; after sending, a thanks that lets the visitor change the rating.
 */
export const RatingPrompt = ({
  rating,
  onRate,
}: {
  rating: VisitorRating | null;
  onRate: (score: number, comment: string) => Promise<boolean>;
}) => {
  const [editing, setEditing] = useState(false);
  const [score, setScore] = useState(rating?.score ?? 0);
  const [comment, setComment] = useState(rating?.comment ?? '');
  const { busy, onSubmit } = useBusySubmit(score >= 1, async () => {
    if (await onRate(score, comment)) setEditing(false);
  });

  if (rating && !editing)
    return (
      <div class="palaver-rating" role="status">
        <p class="palaver-rating-title">Thanks for your feedback!</p>
        <p class="palaver-stars-shown" role="img" aria-label={`You rated ${rating.score} out of 5`}>
          {'★'.repeat(rating.score)}
          <span class="palaver-star-off">{'★'.repeat(5 - rating.score)}</span>
        </p>
        <button
          type="button"
          class="palaver-link-button"
          onClick={() => {
            setScore(rating.score);
            setComment(rating.comment ?? '');
            setEditing(true);
          }}
        >
          Change my rating
        </button>
      </div>
    );

  return (
    <form class="palaver-rating" aria-label="Rate this conversation" onSubmit={onSubmit}>
      <p class="palaver-rating-title" id="palaver-rating-title">
        How did we do?
      </p>
      <div class="palaver-stars" role="radiogroup" aria-labelledby="palaver-rating-title">
        {SCORES.map((value) => (
          <button
            type="button"
            key={value}
            role="radio"
            class={`palaver-star${value <= score ? ' palaver-star--on' : ''}`}
            aria-checked={value === score}
            aria-label={`${value} star${value > 1 ? 's' : ''}: ${WORDS[value]}`}
            title={WORDS[value]}
            onClick={() => setScore(value)}
          >
            ★
          </button>
        ))}
      </div>
      <textarea
        class="palaver-contact-input"
        rows={2}
        maxLength={1000}
        aria-label="Comment (optional)"
        placeholder="Tell us more (optional)"
        value={comment}
        onInput={(event) => setComment((event.target as HTMLTextAreaElement).value)}
      />
      <div class="palaver-dialog-actions">
        {editing && (
          <button type="button" class="palaver-button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        )}
        <button type="submit" class="palaver-button palaver-button--primary" disabled={busy || score < 1}>
          Send rating
        </button>
      </div>
    </form>
  );
};
