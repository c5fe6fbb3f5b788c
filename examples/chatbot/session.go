package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/engram-go/engram/callbacks"
	"github.com/tmc/langchaingo/chains"
)

// session is one conversation: a langchaingo conversation chain over an
// engram (or langchaingo) memory, and the commands that look inside it.
type session struct {
	chain chains.LLMChain
	mem   *backend
	// rw reports feedback and failed turns to the memory; nil when the
	// memory takes no rewards.
	rw  *callbacks.Rewarder
	out io.Writer
	// replies counts the answers of this session, asked those to
	// questions, rated the number of rewards :good and :bad have sent: the
	// same on every memory.
	replies, asked, rated int
}

// nothingAsked answers :why before the chat has answered a question, and
// nothingToRate :good or :bad before it has given any answer, whatever the
// memory: before a question the memories have had nothing to choose for.
const (
	nothingAsked  = "Nothing asked yet: ask a question first; :why then shows what the memory chose for the answer."
	nothingToRate = "Nothing to rate yet: :good and :bad rate the last answer, and there has been none."
)

const help = `Type a message and press Enter. Commands:
  :why    what the memory kept and dropped for the last answer, and why
  :good   the last answer was right (a reward of +1 to the memory); :good NOTE adds a note
  :bad    the last answer was wrong (a reward of −1)
  :stats  units stored, routed and evicted
  :help   this text
  :quit   leave (end of input works too)`

// run parses args, then chats: a line at a time from the -script file, from
// stdin when it is not a terminal, or at an interactive prompt.
func run(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) (err error) {
	c, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	in, interactive := stdin, isTerminal(stdin)
	if c.script != "" {
		f, err := os.Open(c.script)
		if err != nil {
			return err
		}
		defer f.Close()
		in, interactive = f, false
	}
	llm, err := newModel(c)
	if err != nil {
		return err
	}
	mem, err := newBackend(ctx, c, llm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := mem.close(); err == nil {
			err = cerr
		}
	}()
	if lm, ok := llm.(*localModel); ok {
		// The stand-in answers with what the memory ranked first.
		lm.report = mem.explain
	}
	s := &session{chain: chains.NewConversation(llm, mem.rec), mem: mem, out: stdout}
	if mem.sink != nil {
		if s.rw, err = callbacks.New(mem.sink); err != nil {
			return err
		}
		defer func() {
			if cerr := s.rw.Close(ctx); err == nil {
				err = cerr
			}
		}()
		s.chain.CallbacksHandler = s.rw
	}

	fmt.Fprintf(stdout, "engram chatbot: memory %s, budget %d tokens, model %s\n", c.memory, c.budget, c.llm)
	fmt.Fprintf(stdout, "After a few exchanges the history outgrows %d tokens and the memory must choose: :why shows what it kept and dropped.\n", c.budget)
	if c.llm == "local" {
		fmt.Fprintln(stdout, standIn)
	}
	if interactive {
		fmt.Fprintln(stdout, help)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for {
		if interactive {
			fmt.Fprint(stdout, "> ")
		}
		if !sc.Scan() {
			break
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !interactive {
			fmt.Fprintln(stdout, "> "+line)
		}
		if line == ":quit" {
			break
		}
		if err := s.handle(ctx, line); err != nil {
			return err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("an input line is longer than %d MiB; split it", maxLine>>20)
	}
	return sc.Err()
}

// handle answers a message or runs a command.
func (s *session) handle(ctx context.Context, line string) error {
	cmd, arg, _ := strings.Cut(line, " ")
	switch cmd {
	case ":help":
		fmt.Fprintln(s.out, help)
	case ":why":
		if s.asked == 0 {
			fmt.Fprintln(s.out, nothingAsked)
			return nil
		}
		fmt.Fprintln(s.out, s.mem.why())
	case ":stats":
		fmt.Fprintln(s.out, s.mem.stats())
		if s.rw == nil {
			fmt.Fprintln(s.out, "rewards: none (this memory does not learn from feedback)")
			return nil
		}
		st := s.rw.Stats()
		fmt.Fprintf(s.out, "rewards: %d sent with :good and :bad; the rewarder delivered %d events, %d failed, %d dropped\n",
			s.rated, st.Delivered, st.Failed, st.Dropped)
	case ":good", ":bad":
		if s.rw == nil {
			fmt.Fprintln(s.out, "This memory does not learn from feedback; try -memory dmem or rd.")
			return nil
		}
		if s.replies == 0 {
			fmt.Fprintln(s.out, nothingToRate)
			return nil
		}
		rating := callbacks.ThumbsUp
		if cmd == ":bad" {
			rating = callbacks.ThumbsDown
		}
		failed := s.rw.Stats().Failed
		s.rw.Feedback(ctx, rating, strings.TrimSpace(arg))
		if err := s.rw.Flush(ctx); err != nil {
			return err
		}
		if s.rw.Stats().Failed > failed {
			fmt.Fprintln(s.out, "The memory could not take the reward.")
			return nil
		}
		s.rated++
		fmt.Fprintf(s.out, "Sent a reward of %+g to the memory.\n", rating)
	default:
		if strings.HasPrefix(cmd, ":") {
			fmt.Fprintf(s.out, "Unknown command %s; :help lists them.\n", cmd)
			return nil
		}
		reply, err := chains.Run(ctx, s.chain, line)
		if err != nil {
			// A failed turn is reported to the memory by the chain's
			// callbacks; the conversation goes on.
			fmt.Fprintln(s.out, "error:", err)
			return nil
		}
		s.replies++
		if isQuestion(line) {
			s.asked++
		}
		fmt.Fprintln(s.out, strings.TrimSpace(reply))
	}
	return nil
}

// isTerminal reports whether r is a terminal, where a person types: a
// character device other than the null device (which reads as empty).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}

// maxLine is the longest input line the chatbot reads: a pasted document
// may be long, but a line past this ends the session with a clear error.
const maxLine = 16 << 20
