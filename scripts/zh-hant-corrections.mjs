// Read-through corrections to OpenCC's Taiwan conversion (cn → twp) of the page's
// words (scripts/zh-hant-words.mjs), where its output is wrong or reads unlike
// Taiwan. Each [from, to] is matched in OpenCC's output, all in one pass, the
// longest first: a longer entry (even one that maps a word to itself) keeps a
// shorter one out of it. An entry that no longer matches anything fails the build.
export const CORRECTIONS = Object.freeze([
  // In Taiwan a matrix's row is a 列 and its column a 行, the reverse of the mainland's.
  ['行', '列'],
  ['列', '行'],
  // ...but these 行 and 列 are no rows or columns: to run, to go on, will not do, a line of text, to list, a list.
  ['執行', '執行'],
  ['進行', '進行'],
  ['不行', '不行'],
  ['每行一句', '每行一句'],
  ['列出', '列出'],
  ['列表', '列表'],
  ['下面兩行', '下面兩行'], // two lines of text (the printed figures and the exact ones)
  // A column of a table (the side panel's, an experiment's, the Σ column) is a 欄.
  ['每一步填上一列數', '每一步填上一欄數'],
  ['Σ 列', 'Σ 欄'],
  ['原始分數”一列', '原始分數」一欄'],
  ['最後一列是文章印', '最後一欄是文章印'],
  ['兩列都由核心', '兩欄都由核心'],
  // A web address is a 網址.
  ['登入地址', '登入網址'],
  // An example is a 範例 in Taiwan.
  ['示例', '範例'],
  // To follow a token is 追蹤; 跟蹤 is to stalk someone.
  ['跟蹤', '追蹤'],
  // OpenCC's 引數 is a function's argument; a model's (and a link's) parameters are 參數.
  ['引數', '參數'],
  // Building software is 建置.
  ['構建', '建置'],
  // Through (a server) is 透過; 通過 is to pass.
  ['通過伺服器', '透過伺服器'],
  // To get a file is 取得.
  ['獲取', '取得'],
  // "Current" is 目前 in Taiwan.
  ['當前', '目前'],
  ['頁面保持當前語言', '頁面保持目前的語言'],
  ['當前模型保持不變', '目前的模型保持不變'],
  // A step-by-step demonstration is a 示範.
  ['逐步演示', '逐步示範'],
  // Content-Security-Policy's name in Taiwan.
  ['內容安全策略', '內容安全政策'],
  // An English word is a 單字.
  ['單詞', '單字'],
  // A vocabulary is a 詞彙表.
  ['詞表', '詞彙表'],
  // Normalising (LayerNorm, softmax's division by the sum) is 正規化.
  ['歸一化', '正規化'],
  // Statistics in Taiwan: the mean is 平均值, the variance 變異數, the dot product 內積.
  ['均值 0', '平均值 0'],
  ['均值為', '平均值為'],
  ['方差', '變異數'],
  ['點積', '內積'],
  // A mask is a 遮罩 (因果遮罩, 遮罩語言模型).
  ['掩碼', '遮罩'],
  // The text a learner types or trains on is 文字.
  ['文本', '文字'],
  // OpenCC writes "only" as 隻, the measure word for animals.
  ['最多隻', '最多只'],
  // Concatenating is 串接.
  ['拼接', '串接'],
  // Rounding is 捨入 (OpenCC leaves 舍).
  ['舍入', '捨入'],
  // 項目 is an item in a table (OpenCC makes it a project, 專案).
  ['專案', '項目'],
  // A residual connection is 連接; 連線 is going online.
  ['殘差連線', '殘差連接'],
  // A batch is a 批次.
  ['批大小', '批次大小'],
  // A browser's tab is a 分頁.
  ['標籤頁', '分頁'],
  // Splitting text into tokens is 斷詞 in Taiwan (CKIP's 斷詞); 分詞 is a participle in its grammar.
  ['分詞', '斷詞'],
  // Connecting to (a course) is 連線到; 連線 alone takes no object.
  ['正在連線你的課程', '正在連線到你的課程'],
  // A graphics card's memory is its 顯示記憶體 (視訊 is video).
  ['GPU 的視訊記憶體', 'GPU 的顯示記憶體'],
  // 在线段 read as online (線上) and a line segment; an antecedent is a 先行詞, no row or column;
  // a kind of mistake is a 類型 (型別 is a data type); Taiwan's space bar is the 空白鍵, a terminal a
  // 終端機, a script a 腳本, a surrogate a 代理字元.
  ['畫線上段', '畫在線段'],
  ['先行詞', '先行詞'],
  ['錯誤型別', '錯誤類型'],
  ['空格鍵', '空白鍵'],
  ['終端裡顯示的地址', '終端機裡顯示的網址'],
  ['指令碼', '腳本'],
  ['代理項', '代理字元'],
  // Dragging is 拖曳 in Taiwan, and a slider a 滑桿.
  ['拖動', '拖曳'],
  ['滑塊', '滑桿'],
  // Taiwan quotes with corner brackets, which need no space beside them.
  ['“', '「'],
  ['”', '」'],
]);

// Kept as written: the article's sentence and its words are the lab's sentence in
// every language (the model reads it, the tokens and the article's table show it),
// so the words that quote it quote it as it is shown.
export const KEPT = Object.freeze(['我喜欢人工智能', '人工智能', '喜欢', '欢']);
