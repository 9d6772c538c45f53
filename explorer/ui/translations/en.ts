<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>FileCountText</name>
    <message numerus="yes">
        <source>%n file(s) could not be opened:</source>
        <translation>
            <numerusform>%n file could not be opened:</numerusform>
            <numerusform>%n files could not be opened:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBarWidget</name>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n replaced</numerusform>
            <numerusform>%n replaced</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message numerus="yes">
        <source>Only the first %n node(s) are shown.</source>
        <extracomment>The graph is too large to draw; %n is how many of its nodes are drawn.</extracomment>
        <translation>
            <numerusform>Only the first %n node is shown.</numerusform>
            <numerusform>Only the first %n nodes are shown.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This input is used %n time(s) by the operation.</source>
        <translation>
            <numerusform>This input is used %n time by the operation.</numerusform>
            <numerusform>This input is used %n times by the operation.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GridText</name>
    <message numerus="yes">
        <source>{shown} of %n image(s) in a {rows} × {cols} grid</source>
        <translation>
            <numerusform>{shown} of %n image in a {rows} × {cols} grid</numerusform>
            <numerusform>{shown} of %n images in a {rows} × {cols} grid</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImageView</name>
    <message numerus="yes">
        <source>{name} has %n dimension(s); an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).</source>
        <translation>
            <numerusform>{name} has %n dimension; an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).</numerusform>
            <numerusform>{name} has %n dimensions; an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryMapView</name>
    <message numerus="yes">
        <source>allocation: {nbytes} byte(s)</source>
        <extracomment>Size of the memory block the variable lives in; the count chooses the plural form.</extracomment>
        <translation>
            <numerusform>allocation: {nbytes} byte</numerusform>
            <numerusform>allocation: {nbytes} bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>1 cell = {n} byte(s)</source>
        <extracomment>Legend of the memory map: how many bytes one drawn cell (box) stands for.</extracomment>
        <translation>
            <numerusform>1 cell = {n} byte</numerusform>
            <numerusform>1 cell = {n} bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>1 cell = 1 element (%n byte(s))</source>
        <translation>
            <numerusform>1 cell = 1 element (%n byte)</numerusform>
            <numerusform>1 cell = 1 element (%n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>reached %n time(s)</source>
        <translation>
            <numerusform>reached %n time</numerusform>
            <numerusform>reached %n times</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StepPanel</name>
    <message numerus="yes">
        <source>Stepping back: a fresh kernel replays the %n statement(s) before it (random, NumPy and torch seeded as the first time)…</source>
        <translation>
            <numerusform>Stepping back: a fresh kernel replays the %n statement before it (random, NumPy and torch seeded as the first time)…</numerusform>
            <numerusform>Stepping back: a fresh kernel replays the %n statements before it (random, NumPy and torch seeded as the first time)…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>F10 pressed %n more time(s): those steps run next, one after another.</source>
        <translation>
            <numerusform>F10 pressed %n more time: that step runs next.</numerusform>
            <numerusform>F10 pressed %n more times: those steps run next, one after another.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ran to the cursor: %n statement(s), the last is {last}</source>
        <translation>
            <numerusform>Ran to the cursor: %n statement, the last is {last}</numerusform>
            <numerusform>Ran to the cursor: %n statements, the last is {last}</numerusform>
        </translation>
    </message>
</context>
</TS>
