// Building the page's DOM: elements, SVG and the meter bars. Only CSSOM styles (never a style attribute), as
// the page's Content-Security-Policy allows no inline styles.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** A bar whose fill is the share left (role=meter, so screen readers read the figure with its label). */
export function meter(label, value, text, toneName) {
  const fill = el('span');
  // CSSOM, not a style attribute: the page's CSP allows no inline styles.
  fill.style.width = `${Math.min(100, Math.max(0, value))}%`;
  return el(
    'div',
    {
      class: `meter ${toneName}`,
      role: 'meter',
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': Math.round(value * 100) / 100,
      'aria-valuetext': text,
    },
    fill,
  );
}
