// The course bar's words (host/course-bar.js), in English and Chinese: a chunk with the
// cmi5 adapter, loaded only when a learning platform launched the lesson with cmi5.
export const COURSE_EN = Object.freeze({
  'course.connecting': 'Connecting to your course…',
  'course.connected': 'Connected to your course: your answers and where you are go to it.',
  'course.browse': 'Your course opened this lesson to look around: nothing you do here is graded.',
  'course.review': 'Your course opened this lesson for review: nothing you do here changes your result.',
  'course.ended': 'You have finished this session; your course has your results. You can close this window.',
  'course.exit': 'Finish and go back to the course',
  'course.failed.params': 'Not connected to your course: its launch link lacks or garbles {names}. The lab works on its own, but your answers are not recorded.',
  'course.failed.fetch': 'Not connected to your course: its sign-in address did not answer ({detail}). The lab works on its own, but your answers are not recorded.',
  'course.failed.token': 'Not connected to your course: it refused the sign-in ({detail}). Open the lesson again from the course. The lab works on its own meanwhile, but your answers are not recorded.',
  'course.failed.launchData': 'Not connected to your course: it gave no usable launch data ({detail}). The lab works on its own, but your answers are not recorded.',
  'course.lost': 'Your course stopped answering ({detail}): the lab goes on, but what you do now may not be recorded.',
});

export const COURSE_ZH = Object.freeze({
  'course.connecting': '正在连接你的课程……',
  'course.connected': '已连接到你的课程：你的答案和进度都会记录到课程中。',
  'course.browse': '课程以浏览方式开启了本课：你在这里做的不计成绩。',
  'course.review': '课程以复习方式开启了本课：你在这里做的不会改变你的成绩。',
  'course.ended': '本次学习已结束，课程已收到你的结果。可以关闭这个窗口了。',
  'course.exit': '完成并返回课程',
  'course.failed.params': '没有连接到课程：它的启动链接缺少或写错了 {names}。实验室仍可单独使用，但你的答案不会被记录。',
  'course.failed.fetch': '没有连接到课程：它的登录地址没有回应（{detail}）。实验室仍可单独使用，但你的答案不会被记录。',
  'course.failed.token': '没有连接到课程：课程拒绝了登录（{detail}）。请从课程中重新打开本课。在此期间实验室仍可单独使用，但你的答案不会被记录。',
  'course.failed.launchData': '没有连接到课程：它没有给出可用的启动数据（{detail}）。实验室仍可单独使用，但你的答案不会被记录。',
  'course.lost': '课程不再回应（{detail}）：实验室照常工作，但你现在做的可能不会被记录。',
});
