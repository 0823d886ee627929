import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote, Link } from '../components/ui.js';
import { fmtCount } from '../format.js';
import { BASE } from '../router.js';
import type { Group } from '../types.js';

/** The groups beside the device list: create one, open one, delete one. */
export function GroupsPanel(p: { groups: Group[]; onChanged: (message: string) => void; onDelete: (g: Group) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: string; name: string; description: string; color: string } | null>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!editing) return;
    setError(null);
    try {
      const g = await api<Group>('PATCH', `/v1/fleet/groups/${encodeURIComponent(editing.id)}`, {
        name: editing.name.trim(),
        description: editing.description.trim() || null,
        color: editing.color,
      });
      setEditing(null);
      p.onChanged(`Saved the group “${g.name}”.`);
    } catch (err) {
      setError(err as Error);
    }
  };
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const g = await api<Group>('POST', '/v1/fleet/groups', { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
      setName('');
      setDescription('');
      p.onChanged(`Created the group “${g.name}”.`);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <aside class="panel groups" aria-labelledby="groups-heading">
      <h2 id="groups-heading">Groups</h2>
      {p.groups.length === 0 ? <p class="muted">No groups yet. A group gathers devices, e.g. by site or model.</p> : null}
      <ul class="group-list">
        {p.groups.map((g) => (
          <li key={g.group_id}>
            {g.color ? <span class="swatch" style={{ background: g.color }} aria-hidden="true" /> : null}
            <Link href={`${BASE}fleet?group=${encodeURIComponent(g.group_id)}`}>{g.name}</Link>
            <span class="muted"> · {fmtCount(g.device_count, 'device')}</span>
            <button
              type="button"
              class="button small"
              aria-label={`Edit the group ${g.name}`}
              onClick={() => setEditing({ id: g.group_id, name: g.name, description: g.description ?? '', color: g.color ?? '#2f80ed' })}
            >
              Edit
            </button>
            <button type="button" class="button small danger-text" aria-label={`Delete the group ${g.name}`} onClick={() => p.onDelete(g)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {editing ? (
        <form class="stack" onSubmit={save} aria-label="Edit group">
          <h3>Edit group</h3>
          <label for="edit-group-name">Group name</label>
          <input
            id="edit-group-name"
            required
            maxLength={100}
            value={editing.name}
            onInput={(e) => setEditing({ ...editing, name: (e.target as HTMLInputElement).value })}
          />
          <label for="edit-group-description">Group description</label>
          <input
            id="edit-group-description"
            maxLength={500}
            value={editing.description}
            onInput={(e) => setEditing({ ...editing, description: (e.target as HTMLInputElement).value })}
          />
          <label for="edit-group-color">Colour</label>
          <input
            id="edit-group-color"
            type="color"
            value={editing.color}
            onInput={(e) => setEditing({ ...editing, color: (e.target as HTMLInputElement).value })}
          />
          <div>
            <button type="submit" class="button primary" disabled={editing.name.trim() === ''}>
              Save group
            </button>{' '}
            <button type="button" class="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <form class="stack" onSubmit={create}>
        <h3>New group</h3>
        <label for="group-name">Name</label>
        <input id="group-name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <label for="group-description">Description (optional)</label>
        <input id="group-description" maxLength={500} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
        <button type="submit" class="button primary" disabled={busy || name.trim() === ''}>
          Create group
        </button>
        <ErrorNote error={error} />
      </form>
    </aside>
  );
}
