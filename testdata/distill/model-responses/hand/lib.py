# Formats hand-written answers for the replay test: the facts, their
# wording, files and citations are written by hand in r_<session>.py; this
# turns them into the exact shape the writer's prompt asks for (block ids,
# footnotes, citation paths and anchors from the request's SOURCES) and
# saves the recording keyed by the request's hash, computed as
# writereval.RequestHash does (Go's json escapes <, >, & and U+2028/9).
import json, hashlib, os, re
# The recordings go beside this folder, one <hash[:16]>.json each.
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')

def h(s, n): return hashlib.sha256(s.encode()).hexdigest()[:n]

class Req:
    def __init__(self, path):
        self.r = json.load(open(path))
        self.user = self.r['messages'][1]['content']
        self.src = {}
        sec = self.user.split('SOURCES (')[1].split('\n\nEXISTING')[0]
        for line in sec.split('\n')[1:]:
            parts = line.split()
            if len(parts) == 4:
                ref, p, anchor, date = parts
                self.src[ref.rsplit('/', 1)[1]] = (ref, p, anchor, date)
        # SESSIONS: what the prompt says of each conversation (its title,
        # project, and the files the writer files it under).
        self.sessions = [json.loads(l) for l in self.user.split('SESSIONS\n')[1].split('\n\n')[0].split('\n') if l.startswith('{')]
        self.session = self.sessions[0]
        self.turns = [json.loads(l)['ref'] for l in self.user.split('TURNS\n')[1].split('\n\n')[0].split('\n') if l.startswith('{')]
        ex = self.user.split('EXISTING TOPIC FILES (the most relevant, in full)\n', 1)[1]
        self.existing = {}
        for m in re.finditer(r'^--- (\S+)( \(append only[^\n]*)?\n(.*?)(?=^--- |\Z|\nOTHER TOPIC FILES)', ex, re.S | re.M):
            self.existing[m.group(1)] = m.group(3)
        canon = json.dumps({"model": self.r['model'], "messages": [{"role": m['role'], "content": m['content']} for m in self.r['messages']]}, separators=(',', ':'), ensure_ascii=False)
        for a, b in (('<', '\\u003c'), ('>', '\\u003e'), ('&', '\\u0026'), ('\u2028', '\\u2028'), ('\u2029', '\\u2029')):
            canon = canon.replace(a, b)
        self.hash = hashlib.sha256(canon.encode()).hexdigest()

    def rel(self, topic_path, src_path):
        return os.path.relpath(src_path, os.path.dirname(topic_path))

    def block(self, topic_path, text, tids, extra_srcs=None):
        """a block citing turns tids (ids like t001) and its definition."""
        srcs = [self.src[t] for t in tids]
        label = 'e-' + h(topic_path + text + ','.join(tids), 10)
        bid = h('b' + topic_path + text, 8)
        cites = ', '.join('[%s](%s#%s)' % (s[0], self.rel(topic_path, s[1]), s[2]) for s in srcs)
        if extra_srcs:
            cites = extra_srcs + ', ' + cites
        date = srcs[0][3]
        return '%s[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: %s\n' % (text, label, bid, label, date, cites)

    def file(self, path, title, sections):
        out = '# %s\n' % title
        for head, blocks in sections:
            out += '\n## %s\n' % head
            for text, tids in blocks:
                out += '\n' + self.block(path, text, tids)
        return out

    def save(self, edits=None, raw=None, note='', fence=False):
        if raw is None:
            raw = json.dumps({"edits": edits}, ensure_ascii=False, indent=1)
            if fence:
                raw = '```json\n' + raw + '\n```'
        rec = {"hash": self.hash, "model": self.r['model'], "turns": self.turns, "note": note, "response": raw}
        os.makedirs(OUT, exist_ok=True)
        p = os.path.join(OUT, self.hash[:16] + '.json')
        with open(p, 'w') as f:
            f.write(json.dumps(rec, ensure_ascii=False, indent=2) + '\n')
        print('saved', p)
