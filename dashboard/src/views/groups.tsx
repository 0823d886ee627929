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
            <Link href={`${BASE}fleet?group=${encodeURIComponent(g.group_id)}`}>{g.name}</Link>
            <span class="muted"> · {fmtCount(g.device_count, 'device')}</span>
            <button type="button" class="button small danger-text" aria-label={`Delete the group ${g.name}`} onClick={() => p.onDelete(g)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
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
