import { Button } from './ui';

/** The Edit and Delete buttons of one item in a list, named after the item for screen readers. */
export const EditDeleteButtons = ({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) => (
  <>
    <Button variant="secondary" class="button-small" onClick={onEdit} aria-label={`Edit ${name}`}>
      Edit
    </Button>
    <Button variant="danger" class="button-small" onClick={onDelete} aria-label={`Delete ${name}`}>
      Delete
    </Button>
  </>
);
