import { pages, type PageId } from '../routes.ts'

/** Sidebar menu (a top bar under 700 px, see styles.css); plain links, so the keyboard and history work. */
export function Nav({ current, onSignOut }: { current: PageId; onSignOut: () => void }) {
  return (
    <header class="sidebar">
      <div class="brand">model-proxy</div>
      <nav aria-label="Pages">
        <ul>
          {pages.map(([id, label]) => (
            <li key={id}><a href={`#/${id}`} aria-current={id === current ? 'page' : undefined}>{label}</a></li>
          ))}
        </ul>
      </nav>
      <button type="button" class="link signout" onClick={onSignOut}>Sign out</button>
    </header>
  )
}
