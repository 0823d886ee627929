import { ViewHeader } from '../components/layout.js';
import { Link } from '../components/ui.js';
import { BASE } from '../router.js';

export function NotFound() {
  return (
    <section>
      <ViewHeader title="Page not found" lead="The dashboard has no page at this address." />
      <p>
        <Link href={BASE}>Go to the overview</Link>
      </p>
    </section>
  );
}
