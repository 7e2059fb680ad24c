import { useLoad } from '../hooks.ts'
import { loadFamilies, type Family } from '../families.ts'

/** What a family name means, from the server's own registry: its wire format and default endpoint. */
export const familyTitle = (family: string, families: Family[] | undefined) => {
  const known = families?.find(f => f.family === family)
  return known ? `provider family ${known.description}` : `${family}: a provider family`
}

/** Where a family sends: its default endpoint, or that each entry names one. */
export const endpointOf = (family: Family) => family['default-base-url'] ?? 'its base-url, set per entry'

/** A family name with its explanation as a tooltip (and for screen readers). */
export function FamilyName({ family }: { family: string }) {
  const families = useLoad(loadFamilies)
  return <abbr class="family" title={familyTitle(family, families.data)} data-family={family}>{family}</abbr>
}

/** The legend under tables that name families: each identifier once, with the API it speaks and where. */
export function FamilyLegend({ only }: { only?: string[] }) {
  const families = useLoad(loadFamilies)
  const shown = (families.data ?? []).filter(f => !only || only.includes(f.family))
  if (!shown.length) return null
  return (
    <dl class="legend" aria-label="Provider families">
      {shown.map(f => (
        <div key={f.family} data-legend={f.family}>
          <dt>{f.family}</dt>
          <dd>speaks {f['wire-format']}; sends to {endpointOf(f)}</dd>
        </div>
      ))}
    </dl>
  )
}
