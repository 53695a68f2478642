// The reader's language in the browser: the page carries the translations of the scripts'
// strings (tarocchi.web.lang.js_catalog: keys are the English strings, %(name)s
// placeholders; plural ones list their forms in CLDR's order of plural categories).

const data = document.getElementById("i18n");
const I18N = data ? JSON.parse(data.textContent) : { lang: "en", messages: {} };
// CLDR's categories in the order gettext catalogs number their forms
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
const rules = new Map();

// Return the index of the plural form a language uses for the whole number n.
export function pluralIndex(lang, n) {
  if (!rules.has(lang)) {
    const r = new Intl.PluralRules(lang);
    const order = CATEGORIES.filter((c) => r.resolvedOptions().pluralCategories.includes(c));
    rules.set(lang, (k) => order.indexOf(r.select(k)));
  }
  return rules.get(lang)(n);
}

function fill(text, vars) {
  return vars ? text.replace(/%\((\w+)\)[sd]/g, (m, k) => String(vars[k])) : text;
}

export function _(msgid, vars) {
  const t = I18N.messages[msgid];
  return fill(typeof t === "string" && t ? t : msgid, vars);
}

export function ngettext(singular, plural, n, vars) {
  const forms = I18N.messages[singular];
  const t = Array.isArray(forms) ? forms[pluralIndex(I18N.lang, n)] : "";
  return fill(t || (n === 1 ? singular : plural), { n, ...vars });
}
