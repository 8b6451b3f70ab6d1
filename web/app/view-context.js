// What a step view, a panel or a lab draws from: the run (seen through the
// selected head, and whole), the selection, the sentence, and the page's
// handlers. What the views ask of the core — stages, each head's report card,
// the selected token's softmax row in each head — is asked once a run
// (page.cache, emptied when the run changes).
import { headView } from './head-view.js';

/** The run seen through the selected head (head-view.js), made again only
 *  when the run or the head changes: views and panels compare it by identity. */
export function selectedHead(page) {
  if (page.view?.run !== page.trace || page.view.where !== page.where) page.view = headView(page.trace, page.where);
  return page.view;
}

/** page: the page's state; actions: { animate, select, selectHead, selectLayer, hide, unhide }. */
export function viewContext(page, actions) {
  const { trace } = page;
  const once = (key, ask) => {
    if (!page.cache.has(key)) page.cache.set(key, ask());
    return page.cache.get(key);
  };
  // A stage of one head (where = { layer, head }) or of a layer (where = { layer }).
  const stageOf = (id, where) => once(`${id} ${where.layer} ${where.head ?? '-'}`, () => trace.stage(id, where));
  return {
    ...actions,
    trace: selectedHead(page), // the selected head: what the steps draw
    run: trace, // every head, for the views that show them all
    where: page.where,
    trained: page.trained,
    heads: trace.config.heads,
    layers: trace.config.layers,
    knockOut: page.knockOut,
    lab: page.lab,
    stage: (id) => stageOf(id, page.where),
    stageOf,
    layerStage: (id) => stageOf(id, { layer: page.where.layer }),
    /** A head's report card (trace.headReport). */
    reportOf: (where) => once(`report ${where.layer} ${where.head}`, () => trace.headReport(where)),
    /** The selected token's row through softmax in a head. */
    rowOf: (where) => once(`row ${page.selected} ${where.layer} ${where.head}`, () => trace.softmaxRow(page.selected, where)),
    layerOpen: page.layerOpen,
    setLayerOpen: (open) => { page.layerOpen = open; },
    sentence: page.sentence,
    tokens: trace.tokens,
    ids: trace.ids,
    n: trace.tokens.length,
    selected: page.selected,
    config: trace.config,
  };
}
