import { useState } from 'preact/hooks'
import type { Family } from '../families.ts'
import { Section } from './field.tsx'

/**
 * The first question of "add a key": which API the key is for. A newcomer knows that (the vendor's
 * docs say it), not the family identifiers; the answer opens the right family's form.
 */
export function KeyKindChooser({ families, onChoose }: { families: Family[]; onChoose: (family: Family) => void }) {
  const [chosen, setChosen] = useState('')
  const picked = families.find(f => f.family === chosen)
  return (
    <Section title="Add a key">
      <form class="key-kind" aria-label="Add a key" onSubmit={(e) => { e.preventDefault(); if (picked) onChoose(picked) }}>
        <fieldset>
          <legend>What kind of key do you hold?</legend>
          {families.map(f => (
            <label key={f.family} class="choice" data-key-kind={f.family}>
              <input type="radio" name="key-kind" value={f.family} checked={chosen === f.family} onChange={() => setChosen(f.family)} />
              <span>{capitalize(f['key-kind'])} <span class="muted">({f.family})</span></span>
            </label>
          ))}
        </fieldset>
        <div class="actions"><button type="submit" class="primary" disabled={!picked}>{picked ? `Open the ${picked.family} form` : 'Open the form'}</button></div>
      </form>
    </Section>
  )
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
