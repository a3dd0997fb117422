/** Hindi for src/features/pipelines; assembled in ../hn.ts. */

export const pipelines = {
  runDialog: { timeoutCap: 'संगठन की सीमा के कारण रन अधिकतम {{count}} मिनट में समाप्त होगा' },
  versions: {
    title: 'संस्करण',
    onlyOne: 'अभी तक केवल एक संस्करण है: बदली हुई परिभाषा सहेजने पर अगला संस्करण बनता है।',
    columns: { version: 'संस्करण', format: 'फ़ॉर्मैट', savedBy: 'किसने सहेजा', savedAt: 'कब सहेजा' },
    label: 'v{{version}}',
    labelCurrent: 'v{{version}} (वर्तमान)',
    current: 'वर्तमान',
    nobody: 'दर्ज नहीं',
    view: 'देखें',
    compare: 'तुलना करें',
    restore: 'पुनर्स्थापित करें',
    viewTitle: 'संस्करण {{version}}',
    definitionOf: 'संस्करण {{version}} की परिभाषा',
    loadError: 'यह संस्करण लोड नहीं हो सका।',
    restoreThis: 'यह संस्करण पुनर्स्थापित करें',
    compareWithCurrent: 'वर्तमान से तुलना करें',
    close: 'बंद करें',
    compareTitle: 'संस्करणों की तुलना',
    from: 'से',
    to: 'तक',
    swap: 'पक्ष बदलें',
    closeCompare: 'तुलना बंद करें',
    summaryLabel: '{{added}} पंक्तियाँ जोड़ी गईं, {{removed}} पंक्तियाँ हटाई गईं',
    diffLabel: 'संस्करण {{from}} से संस्करण {{to}} तक के बदलाव',
    identical: 'इन दोनों संस्करणों की परिभाषा एक ही है।',
    unchanged: '… {{count}} अपरिवर्तित पंक्तियाँ',
    restoreTitle: 'संस्करण {{version}} पुनर्स्थापित करें?',
    restoreBody:
      'इसकी परिभाषा एक नए संस्करण के रूप में सहेजी जाती है, जो वर्तमान संस्करण बन जाता है; सभी संस्करण रखे जाते हैं। ऊपर के संपादक में बिना सहेजे बदलाव बदल दिए जाते हैं।',
    restoreConfirm: 'पुनर्स्थापित करें',
    restored: 'संस्करण {{from}} पुनर्स्थापित हुआ: पाइपलाइन अब संस्करण {{version}} पर है।',
    externalNote:
      'इस पाइपलाइन की परिभाषा उसकी git रिपॉज़िटरी से आती है, इसलिए पिछला संस्करण यहाँ पुनर्स्थापित नहीं किया जा सकता: रिपॉज़िटरी में फ़ाइल बदलें, फिर सिंक करें।',
  },
};
