import type { Page } from 'playwright-core'

/**
 * What does not fit the viewport on the page shown: the page wider than the window, any element whose
 * right edge passes it (a table column cut off in a scroll box counts: on a phone nobody finds it),
 * and any select too narrow for the option it shows. Scrolling text boxes (pre, textarea) may be wider
 * inside. Returns one line per finding, empty when everything fits.
 */
export function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const found: string[] = []
    const name = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''
      const data = [...el.attributes].find(a => a.name.startsWith('data-'))
      return `${el.tagName.toLowerCase()}${id}${cls}${data ? `[${data.name}="${data.value}"]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`
    }
    if (document.documentElement.scrollWidth > width + 1) found.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`)
    for (const el of document.querySelectorAll('body *')) {
      // Inside a box that scrolls its text by design; the box itself must fit.
      if (el.parentElement?.closest('pre, textarea, svg') || el.closest('.skip, option, datalist, script, style')) continue
      const box = el.getBoundingClientRect()
      if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue
      if (box.right > width + 1) found.push(`${name(el)} ends at ${Math.round(box.right)}px`)
    }
    const canvas = document.createElement('canvas').getContext('2d')!
    for (const select of document.querySelectorAll('select')) {
      const shown = select.selectedOptions[0]?.text ?? ''
      const style = getComputedStyle(select)
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      // The text, the padding, and about 20px for the arrow.
      const needed = canvas.measureText(shown).width + Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight) + 20
      if (select.getBoundingClientRect().width + 0.5 < needed) found.push(`${name(select)} shows "${shown}" in ${Math.round(select.getBoundingClientRect().width)}px, needs ${Math.round(needed)}px`)
    }
    return found.slice(0, 12)
  })
}
