// What a step view, a panel or a lab draws from: the run (seen through the
// selected head, and whole), the selection, the sentence, and the page's
// handlers. Stages are asked of the core once a run (page.cache).

/** page: the page's state; actions: { animate, select, selectHead, selectLayer, hide, unhide }. */
export function viewContext(page, actions) {
  const { trace } = page;
  // A stage of one head (where = { layer, head }) or of a layer (where = { layer }).
  const stageOf = (id, where) => {
    const key = `${id} ${where.layer} ${where.head ?? '-'}`;
    if (!page.cache.has(key)) page.cache.set(key, trace.stage(id, where));
    return page.cache.get(key);
  };
  return {
    ...actions,
    trace: page.view, // the selected head: what the steps draw (head-view.js)
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
