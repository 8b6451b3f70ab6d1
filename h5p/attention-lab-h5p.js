// H5P.AttentionLab: the lab as an H5P content type. It puts one <attention-lab>
// element (dist/attention-lab-h5p.js: the element with its core, wasm and
// model inside) in H5P's frame with the author's settings (semantics.json), and
// reports as H5P's question types do: an xAPI "answered" statement for each
// exercise (its score, success, response and the interaction's definition),
// "progressed" for each tour card, "completed" when the exercise set or the
// tour is done; getScore/getMaxScore/showSolutions/resetTask/getCurrentState
// for H5P's containers and its saved state (resume).
// H5P's core (the global H5P, with H5P.EventDispatcher) is loaded before any content type's scripts.

H5P.AttentionLab = (function (EventDispatcher) {
  const STEPS = ['tokens', 'embedding', 'qkv', 'scores', 'scaled', 'softmax', 'weighted-sum', 'output', 'concat'];
  const EXERCISE = /^\s*((dot|scaled|exp|softmax|output)(:\d+:\d+)?\s*(,\s*(dot|scaled|exp|softmax|output)(:\d+:\d+)?\s*)*)?$/;

  // The author's settings, each checked, with its default where it is missing or not valid.
  function settings(params) {
    const p = params || {};
    const sentence = typeof p.sentence === 'string' && p.sentence.trim() ? p.sentence : '我喜欢人工智能';
    return {
      sentence: sentence,
      language: ['zh', 'zh-Hant'].indexOf(p.language) >= 0 ? p.language : 'en',
      step: STEPS.indexOf(p.step) >= 0 ? p.step : 'softmax',
      exercises: typeof p.exercises === 'string' && EXERCISE.test(p.exercises) ? p.exercises.trim() : '',
      tour: p.tour === true,
      masteryScore: typeof p.masteryScore === 'number' && p.masteryScore >= 0 && p.masteryScore <= 100 ? p.masteryScore : 80,
    };
  }

  function AttentionLab(params, contentId, extras) {
    EventDispatcher.call(this);
    this.params = settings(params);
    this.contentId = contentId;
    this.previousState = (extras && extras.previousState) || null;
    this.results = {}; // the latest answer to each exercise, by its index: { correct }
    this.count = 0; // the set's size, once the lab says it
    this.completed = false;
    this.element = null;
  }
  AttentionLab.prototype = Object.create(EventDispatcher.prototype);
  AttentionLab.prototype.constructor = AttentionLab;

  AttentionLab.prototype.attach = function ($container) {
    const self = this;
    const box = $container.get ? $container.get(0) : $container;
    box.classList.add('h5p-attention-lab');
    const element = document.createElement('attention-lab');
    const p = this.params;
    element.setAttribute('sentence', p.sentence);
    element.setAttribute('lang', p.language);
    element.setAttribute('step', p.step);
    element.setAttribute('exercises', p.exercises || 'dot,scaled,exp,softmax,output');
    element.setAttribute('embed', '');
    if (p.tour) element.setAttribute('tour', 'article');
    element.addEventListener('exercise', function (event) { self.answered(event.detail); });
    element.addEventListener('tour', function (event) { self.toured(event.detail); });
    element.addEventListener('ready', function () {
      self.count = element.exerciseCount || self.count; // the set's size, as the lab (its core) reads it
      self.trigger('resize');
    });
    box.replaceChildren(element); // an element there before (resetTask) is removed: its lab ends
    this.element = element;
    if (this.previousState && this.previousState.lab) {
      element.restore(this.previousState.lab);
      this.results = this.previousState.results || {};
      this.completed = Boolean(this.previousState.completed);
    }
  };

  // An answer to an exercise: an "answered" statement for it, and "completed" once every one is answered.
  AttentionLab.prototype.answered = function (result) {
    const set = result.set || {};
    this.count = set.count || this.count;
    this.results[set.index] = { correct: Boolean(result.correct) };
    const event = this.createXAPIEventTemplate('answered');
    const statement = event.data.statement;
    const item = result.exercise + '-' + result.cell.row + '-' + result.cell.col;
    statement.object.id = statement.object.id + '?subContentId=' + encodeURIComponent(item);
    // The interaction as the lab describes it (its name and description in English and Chinese,
    // numeric, the range of answers the core takes as right): the same as the cmi5 package reports.
    Object.assign(event.getVerifiedStatementValue(['object', 'definition']), result.interaction);
    event.setScoredResult(result.correct ? 1 : 0, 1, this, true, Boolean(result.correct));
    statement.result.response = String(result.answer);
    this.trigger(event);
    if (!this.completed && this.count && Object.keys(this.results).length >= this.count) this.complete();
  };

  // The set is done: "completed", scored over the set, passed at the mastery score.
  AttentionLab.prototype.complete = function () {
    this.completed = true;
    const score = this.getScore();
    const max = this.getMaxScore();
    this.triggerXAPIScored(score, max, 'completed', true, max > 0 && (100 * score) / max >= this.params.masteryScore);
  };

  // A move in the guided tour: "progressed" with the card reached, "completed" at its end.
  AttentionLab.prototype.toured = function (move) {
    const event = this.createXAPIEventTemplate(move.finished ? 'completed' : 'progressed');
    event.data.statement.result = { completion: Boolean(move.finished),
      extensions: { 'http://id.tincanapi.com/extension/ending-point': String(move.index + 1) } };
    this.trigger(event);
  };

  AttentionLab.prototype.getScore = function () {
    const self = this;
    return Object.keys(this.results).filter(function (k) { return self.results[k].correct; }).length;
  };
  AttentionLab.prototype.getMaxScore = function () { return this.count; };
  AttentionLab.prototype.getAnswerGiven = function () { return Object.keys(this.results).length > 0; };
  // Every exercise's solution shown in the lab (as its Show answer does, each then no longer counts).
  AttentionLab.prototype.showSolutions = function () {
    if (this.element) this.element.showSolutions();
  };
  // Back to the start: the answers forgotten, the lab as the author set it.
  AttentionLab.prototype.resetTask = function () {
    this.results = {};
    this.completed = false;
    this.previousState = null;
    if (this.element && this.element.parentNode) this.attach(this.element.parentNode);
  };
  // What H5P saves between visits (its contentUserData): the lab's progress and the answers.
  AttentionLab.prototype.getCurrentState = function () {
    return { lab: this.element ? this.element.progress() : null, results: this.results, completed: this.completed };
  };
  AttentionLab.prototype.getXAPIData = function () {
    const event = this.createXAPIEventTemplate('answered');
    const passed = this.getMaxScore() > 0 && (100 * this.getScore()) / this.getMaxScore() >= this.params.masteryScore;
    event.setScoredResult(this.getScore(), this.getMaxScore(), this, true, passed);
    return { statement: event.data.statement };
  };

  return AttentionLab;
})(H5P.EventDispatcher);
