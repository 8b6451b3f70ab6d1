// A head's number and name as the page writes them.

/** A head's number on the page: "head 3" counts from 1, as a learner does (the API from 0). */
export const headNumber = (head) => head + 1;

/** A head's name on the page, "Head 3" / "第 3 个头". */
export const headName = (t, head) => t('heads.name', { n: headNumber(head) });

/** Heads ([{ layer, head }]) named in running text, the layer said when the model has more than one. */
export const headsInText = (t, heads, layers) => heads.map((k) => (layers > 1
  ? t('heads.nameInLayer', { n: headNumber(k.head), layer: k.layer + 1 }) : t('heads.nameInText', { n: headNumber(k.head) }))).join(t('list.sep'));
