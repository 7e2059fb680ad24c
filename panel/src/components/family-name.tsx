import { useLoad } from '../hooks.ts'
import { loadFamilies, type Family } from '../families.ts'
import { describeFormat } from '../wire-formats.ts'

/** What a family name means: `beta: messages (/v1/messages)`, from the server's own registry. */
export const familyTitle = (family: string, families: Family[] | undefined) => {
  const known = families?.find(f => f.family === family)
  return known ? `${family} is a provider family (${known.label}); it speaks the ${describeFormat(known.format)} wire format upstream` : `${family}: a provider family`
}

/** A family name with its explanation as a tooltip (and for screen readers). */
export function FamilyName({ family }: { family: string }) {
  const families = useLoad(loadFamilies)
  return <abbr class="family" title={familyTitle(family, families.data)} data-family={family}>{family}</abbr>
}

/** The legend under tables that name families: each family with the wire format it speaks. */
export function FamilyLegend({ only }: { only?: string[] }) {
  const families = useLoad(loadFamilies)
  const shown = (families.data ?? []).filter(f => !only || only.includes(f.family))
  if (!shown.length) return null
  return (
    <dl class="legend" aria-label="Provider families">
      {shown.map(f => (
        <div key={f.family} data-legend={f.family}>
          <dt>{f.family}</dt>
          <dd>{f.label}; speaks {describeFormat(f.format)}</dd>
        </div>
      ))}
    </dl>
  )
}
